package dev.qaldy.gate.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Gives the gate's status lines the standard reason phrase on both servers. Payara Micro wrote
 * {@code HTTP/1.1 429 CUSTOM}: Grizzly's {@code HttpStatus} table knows only RFC 2616 codes plus 308,
 * 421 and 431. Open Liberty wrote {@code HTTP/1.1 429 Undefined}: its HTTP channel's
 * {@code StatusCodes} table knows only RFC 2616 codes, and a servlet cannot name a phrase
 * ({@code setStatus(int, String)} left the Servlet API in 6.0; {@code sendError(int, String)} would
 * replace the gate's body). At start the missing {@link #PHRASES} are added to whichever table the
 * server has, by reflection. Cosmetic for clients (RFC 9112), but people read it in {@code curl -v}
 * and logs.
 */
@ApplicationScoped
public class ReasonPhrases {

    /** Registered codes (IANA registry, RFC 9110, RFC 6585) missing from Grizzly 4's or Liberty's table. */
    static final Map<Integer, String> PHRASES = Map.ofEntries(
            Map.entry(308, "Permanent Redirect"),
            Map.entry(421, "Misdirected Request"),
            Map.entry(422, "Unprocessable Content"),
            Map.entry(425, "Too Early"),
            Map.entry(426, "Upgrade Required"),
            Map.entry(428, "Precondition Required"),
            Map.entry(429, "Too Many Requests"),
            Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(451, "Unavailable For Legal Reasons"),
            Map.entry(507, "Insufficient Storage"),
            Map.entry(508, "Loop Detected"),
            Map.entry(511, "Network Authentication Required"));

    static final String GRIZZLY_UNKNOWN = "CUSTOM";
    static final String GRIZZLY_STATUS = "org.glassfish.grizzly.http.util.HttpStatus";
    static final String LIBERTY_STATUS = "com.ibm.wsspi.http.channel.values.StatusCodes";

    @Inject
    Logger log;

    /**
     * On a web module the event's payload is its {@code ServletContext}, whose class comes from the
     * server's web container: Liberty hides its HTTP channel from applications, but the web
     * container's own class loader sees it.
     */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Class<?> grizzly = find(GRIZZLY_STATUS, started);
        if (grizzly != null) {
            try {
                log.log(Level.INFO, "gate: standard reason phrases added to Grizzly''s status table for {0}", register(grizzly));
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.log(Level.WARNING, "gate: cannot add reason phrases to Grizzly; a 429 shows as \"429 CUSTOM\"", e);
            }
            return;
        }
        Class<?> liberty = find(LIBERTY_STATUS, started);
        if (liberty != null) {
            try {
                log.log(Level.INFO, "gate: standard reason phrases added to Liberty''s status codes for {0}", registerOnLiberty(liberty));
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.log(Level.WARNING, "gate: cannot add reason phrases to Liberty; a 429 shows as \"429 Undefined\"", e);
            }
            return;
        }
        log.log(Level.FINE, "gate: neither Grizzly''s nor Liberty''s status table is visible; reason phrases as the server writes them");
    }

    /** The server's class {@code name}, from the gate's own class loader or the web container's; null when none sees it. */
    static Class<?> find(String name, Object started) {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        loaders.add(ReasonPhrases.class.getClassLoader());
        for (Class<?> c = started == null ? null : started.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.getClassLoader() != null) {
                loaders.add(c.getClassLoader());
            }
        }
        for (ClassLoader loader : loaders) {
            try {
                return Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError notHere) {
                // not this server, or not visible from this loader
            }
        }
        return null;
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

    /**
     * Liberty: each missing code made with {@code new StatusCodes(code, phrase, bodyAllowed)}, whose
     * constructor puts it into the channel's table (an array slot that was empty: the channel made an
     * "Undefined" code for it on every response); returns the codes added.
     */
    static List<Integer> registerOnLiberty(Class<?> statusCodes) throws ReflectiveOperationException {
        Method lookup = statusCodes.getMethod("getByOrdinal", int.class);
        var create = statusCodes.getConstructor(int.class, String.class, boolean.class);
        List<Integer> added = new ArrayList<>();
        synchronized (statusCodes) {
            for (Map.Entry<Integer, String> entry : PHRASES.entrySet()) {
                if (lookup.invoke(null, entry.getKey()) == null) {
                    create.newInstance(entry.getKey(), entry.getValue(), true);
                    added.add(entry.getKey());
                }
            }
        }
        added.sort(null);
        return added;
    }
}
