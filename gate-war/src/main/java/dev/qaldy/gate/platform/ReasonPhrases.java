package dev.qaldy.gate.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Gives the status line of the gate's answers the standard reason phrase on Payara Micro, which
 * wrote {@code HTTP/1.1 429 CUSTOM} for the shield's 429.
 *
 * <p>Why: the servlet API sets only the number ({@code setStatus(int)}; Servlet 6 removed
 * {@code setStatus(int, String)}). Payara passes it to Grizzly, whose {@code HttpResponsePacket}
 * looks the phrase up in {@code HttpStatus}'s table of RFC 2616 codes plus 308, 421 and 431; any
 * other code gets the phrase {@code CUSTOM}. {@code sendError(int, String)} would set a custom
 * phrase, but it hands the body to the container's error page and resets what the gate wrote, and
 * no listener setting of Payara changes the table. The phrase is cosmetic for HTTP clients (RFC 9112:
 * a client should ignore it; HTTP/2 has none), but people read it in {@code curl -v} and logs.
 *
 * <p>What: at start, for each code of {@link #PHRASES} that Grizzly's table does not know, this adds
 * the standard phrase to it (by reflection: nothing here is compiled against Grizzly; on any other
 * server, Open Liberty included, it finds nothing and does nothing; Liberty writes its own phrases).
 * Codes Grizzly knows (400–417, 500–505: 413 "Request Entity Too Large", 503 "Service
 * Unavailable") are left as they are. The table is the server's, so an upstream's 422 or 451 that
 * the gate passes on gets its phrase too.
 */
@ApplicationScoped
public class ReasonPhrases {

    /** Registered codes (IANA HTTP status code registry, RFC 9110 and RFC 6585) missing from Grizzly 4's table. */
    static final Map<Integer, String> PHRASES = Map.ofEntries(
            Map.entry(422, "Unprocessable Content"),
            Map.entry(425, "Too Early"),
            Map.entry(426, "Upgrade Required"),
            Map.entry(428, "Precondition Required"),
            Map.entry(429, "Too Many Requests"),
            Map.entry(451, "Unavailable For Legal Reasons"),
            Map.entry(507, "Insufficient Storage"),
            Map.entry(508, "Loop Detected"),
            Map.entry(511, "Network Authentication Required"));

    /** Grizzly's phrase for a code missing from its table. */
    static final String GRIZZLY_UNKNOWN = "CUSTOM";

    @Inject
    Logger log;

    /** Adds the missing phrases when the application starts (no-op outside Payara/Grizzly). */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Class<?> httpStatus;
        try {
            httpStatus = Class.forName("org.glassfish.grizzly.http.util.HttpStatus", true, ReasonPhrases.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError notGrizzly) {
            log.log(Level.FINE, "gate: not on Grizzly; its reason phrases need no help ({0})", notGrizzly.toString());
            return;
        }
        try {
            List<Integer> added = register(httpStatus);
            log.log(Level.INFO, "gate: standard reason phrases added to Grizzly''s status table for {0}", added);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.log(Level.WARNING, "gate: cannot add reason phrases to Grizzly; a 429 shows as \"429 CUSTOM\"", e);
        }
    }

    /**
     * Puts each missing phrase into {@code HttpStatus.statusMessages}, built with the public
     * {@code HttpStatus.newHttpStatus(int, String)}; a code the table knows is left alone.
     *
     * @return the codes added
     */
    @SuppressWarnings("unchecked")
    static List<Integer> register(Class<?> httpStatus) throws ReflectiveOperationException {
        Method lookup = httpStatus.getMethod("getHttpStatus", int.class);
        Method phrase = httpStatus.getMethod("getReasonPhrase");
        Method create = httpStatus.getMethod("newHttpStatus", int.class, String.class);
        Field field = httpStatus.getDeclaredField("statusMessages");
        field.setAccessible(true);
        Map<Integer, Object> table = (Map<Integer, Object>) field.get(null);
        List<Integer> added = new ArrayList<>();
        synchronized (table) { // a HashMap read by request threads: one small put each, no resize (about 45 entries)
            for (Map.Entry<Integer, String> entry : PHRASES.entrySet()) {
                if (GRIZZLY_UNKNOWN.equals(phrase.invoke(lookup.invoke(null, entry.getKey())))) {
                    table.put(entry.getKey(), create.invoke(null, entry.getKey(), entry.getValue()));
                    added.add(entry.getKey());
                }
            }
        }
        added.sort(null);
        return added;
    }
}
