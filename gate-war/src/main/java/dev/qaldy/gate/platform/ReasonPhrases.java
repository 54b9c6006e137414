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
 * Gives the gate's status lines the standard reason phrase on Payara Micro, which wrote
 * {@code HTTP/1.1 429 CUSTOM}: Grizzly's {@code HttpStatus} table knows only RFC 2616 codes plus 308,
 * 421 and 431, and {@code sendError(int, String)} would replace the gate's body. At start the missing
 * {@link #PHRASES} are added to that table by reflection (nothing to do on another server). Cosmetic
 * for clients (RFC 9112), but people read it in {@code curl -v} and logs.
 */
@ApplicationScoped
public class ReasonPhrases {

    /** Registered codes (IANA registry, RFC 9110, RFC 6585) missing from Grizzly 4's table. */
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

    static final String GRIZZLY_UNKNOWN = "CUSTOM";

    @Inject
    Logger log;

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

    /** Puts each missing phrase into {@code HttpStatus.statusMessages}; returns the codes added. */
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
