package dev.qaldy.contract.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.lang.reflect.Constructor;
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
 * Gives a component's status lines the standard reason phrase on both servers, as the base of each
 * WAR's {@code @ApplicationScoped ReasonPhrases}. Payara Micro wrote {@code HTTP/1.1 429 CUSTOM}:
 * Grizzly's {@code HttpStatus} table knows only RFC 2616 codes plus 308, 421 and 431. Open Liberty
 * wrote {@code HTTP/1.1 429 Undefined}: its HTTP channel's {@code StatusCodes} table knows only RFC
 * 2616 codes (issue 21). A servlet cannot name a phrase ({@code setStatus(int, String)} left the
 * Servlet API in 6.0; {@code sendError(int, String)} would replace the body), so at the application's
 * start the missing {@link #PHRASES} are added to whichever table the server has, by reflection
 * (compiled against neither server). Cosmetic for clients (RFC 9112), but people read it in
 * {@code curl -v} and logs.
 */
public abstract class StandardReasonPhrases {

    /** Registered codes (IANA registry, RFC 9110, RFC 6585) missing from Grizzly 4's or Liberty's table. */
    public static final Map<Integer, String> PHRASES = Map.ofEntries(
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

    /** Grizzly's phrase for a code its table lacks. */
    public static final String GRIZZLY_UNKNOWN = "CUSTOM";
    static final String GRIZZLY_STATUS = "org.glassfish.grizzly.http.util.HttpStatus";
    static final String LIBERTY_STATUS = "com.ibm.wsspi.http.channel.values.StatusCodes";

    /** The logger of the component's own subclass (as its {@code @Inject Logger} would be named). */
    Logger log() {
        return Logger.getLogger(getClass().getName());
    }

    /**
     * On a web module the event's payload is its {@code ServletContext}, whose class comes from the
     * server's web container: Liberty hides its HTTP channel from applications, but the web
     * container's own class loader sees it.
     */
    void addMissingPhrases(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Class<?> grizzly = find(GRIZZLY_STATUS, started);
        Class<?> liberty = grizzly == null ? find(LIBERTY_STATUS, started) : null;
        String table = grizzly != null ? "Grizzly's status table" : "Liberty's status codes";
        if (grizzly == null && liberty == null) {
            log().log(Level.FINE, "neither Grizzly''s nor Liberty''s status table is visible; reason phrases as the server writes them");
            return;
        }
        try {
            List<Integer> added = grizzly != null ? registerOnGrizzly(grizzly) : registerOnLiberty(liberty);
            log().log(Level.INFO, "standard reason phrases added to {0} for {1}", new Object[] {table, added});
        } catch (ReflectiveOperationException | RuntimeException e) {
            log().log(Level.WARNING, "cannot add reason phrases to " + table + "; a 429 shows without its phrase", e);
        }
    }

    /** The server's class {@code name}, from this class's loader or the web container's; null when none sees it. */
    static Class<?> find(String name, Object started) {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        loaders.add(StandardReasonPhrases.class.getClassLoader());
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

    /** Grizzly: puts each missing phrase into {@code HttpStatus.statusMessages}; returns the codes added. */
    @SuppressWarnings("unchecked")
    public static List<Integer> registerOnGrizzly(Class<?> httpStatus) throws ReflectiveOperationException {
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
     * constructor puts it into the channel's table (a slot that was empty: the channel made an
     * "Undefined" code for it on every response); returns the codes added.
     */
    public static List<Integer> registerOnLiberty(Class<?> statusCodes) throws ReflectiveOperationException {
        Method lookup = statusCodes.getMethod("getByOrdinal", int.class);
        Constructor<?> create = statusCodes.getConstructor(int.class, String.class, boolean.class);
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
