package dev.qaldy.gate.platform;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Makes a malformed Host port reach the gate's own router on Payara Micro, which would otherwise
 * answer it with an empty 200 before any application code runs.
 *
 * <p>Why: Payara's web container asks Grizzly for the server name before it picks the application
 * ({@code CoyoteAdapter.postParseRequest}, or {@code ContainerMapper} with several applications).
 * Grizzly ({@code HttpCodecUtils.parseHost}) reads everything after the first ':' of the Host header
 * as a port and throws {@code IllegalStateException} at the first character that is not a hex digit
 * ({@code app.localhost:8080@evil}, {@code app.localhost:8080:1}); Payara logs it as SEVERE and sends
 * the response as it stands: 200, no body (500 with several applications). No setting of the
 * listener changes that, and no filter, valve or error page of the application is reached.
 *
 * <p>What: at start this bean adds a Grizzly {@code HttpServerProbe} to every HTTP listener of the
 * server (found through Payara's service locator, by reflection: nothing here is compiled against
 * Payara, and on any other server, Open Liberty included, it finds nothing and does nothing). The
 * probe runs for each request before the container parses the Host; when any Host value is not
 * {@code name[:port]} with a port of 1–5 digits it replaces the header with {@value #REPLACEMENT},
 * which is no host of this cell, so the gate's router refuses it with its 400 "unknown host" page
 * (never forwarded). The probe is removed when the application stops.
 *
 * <p>The same holds for a request path Payara cannot decode: a bad percent-escape ({@code /%ZZ},
 * a trailing {@code %}) or an encoded NUL ({@code %00}) made it log a SEVERE stack trace (about
 * 3 KB, for anyone, unsigned) and answer an empty 200, and a dot segment ({@code /../}) an empty
 * 400. The probe replaces such a path with {@value #MALFORMED_PATH}, which the gate answers with
 * its 400 "bad path" page.
 */
@ApplicationScoped
public class PayaraHostGuard {

    /** What a malformed Host header becomes: {@code .invalid} can never be a cell's domain (RFC 2606). */
    public static final String REPLACEMENT = "malformed-host.invalid";

    /** What a request path the server cannot decode becomes; the gate answers it with 400. */
    public static final String MALFORMED_PATH = "/.qaldy/malformed-path";

    /** A Host value whose port, if any, Grizzly reads without failing and the gate would accept: 1–5 digits. */
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    @Inject
    Logger log;

    private final List<Object[]> installed = new ArrayList<>(); // {monitoring config, probe array}

    /** Installs the probe when the application starts (no-op outside Payara). */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        ClassLoader server = PayaraHostGuard.class.getClassLoader();
        Class<?> probeType;
        Object locator;
        try {
            probeType = Class.forName("org.glassfish.grizzly.http.server.HttpServerProbe", false, server);
            locator = Class.forName("org.glassfish.internal.api.Globals", true, server).getMethod("getDefaultHabitat").invoke(null);
        } catch (ReflectiveOperationException | LinkageError notPayara) {
            log.log(Level.FINE, "gate: not on Payara; no Host guard needed ({0})", notPayara.toString());
            return;
        }
        try {
            Class<?> serviceLocator = Class.forName("org.glassfish.hk2.api.ServiceLocator", false, server);
            Method getService = serviceLocator.getMethod("getService", Class.class, Annotation[].class);
            Method getAllServices = serviceLocator.getMethod("getAllServices", Class.class, Annotation[].class);
            Class<?> grizzlyServiceType = Class.forName("com.sun.enterprise.v3.services.impl.GrizzlyService", false, server);
            Class<?> listenerType = Class.forName("org.glassfish.grizzly.config.dom.NetworkListener", false, server);
            Class<?> serverFilterType = Class.forName("org.glassfish.grizzly.http.server.HttpServerFilter", false, server);
            Object grizzly = getService.invoke(locator, grizzlyServiceType, new Annotation[0]);
            Method lookup = grizzlyServiceType.getMethod("lookupNetworkProxy", listenerType);
            Object probe = Proxy.newProxyInstance(probeType.getClassLoader(), new Class<?>[] {probeType}, new Probe());
            Object probes = Array.newInstance(probeType, 1);
            Array.set(probes, 0, probe);
            for (Object listener : (List<?>) getAllServices.invoke(locator, listenerType, new Annotation[0])) {
                Object proxy = lookup.invoke(grizzly, listener);
                if (proxy == null) {
                    continue;
                }
                Object grizzlyListener = proxy.getClass().getMethod("getUnderlyingListener").invoke(proxy);
                List<?> filters = (List<?>) grizzlyListener.getClass().getMethod("getFilters", Class.class)
                        .invoke(grizzlyListener, serverFilterType);
                for (Object filter : filters) {
                    Object monitoring = serverFilterType.getMethod("getMonitoringConfig").invoke(filter);
                    Method add = monitoring.getClass().getMethod("addProbes", Object[].class);
                    add.invoke(monitoring, probes);
                    installed.add(new Object[] {monitoring, probes});
                }
            }
            log.log(Level.INFO, "gate: Payara Host guard on {0} HTTP listener filter(s): a malformed Host port gets the gate''s 400",
                    installed.size());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.log(Level.WARNING, "gate: cannot install the Payara Host guard; a malformed Host port gets Payara's empty answer", e);
        }
    }

    @PreDestroy
    void stop() {
        for (Object[] entry : installed) {
            try {
                entry[0].getClass().getMethod("removeProbes", Object[].class).invoke(entry[0], entry[1]);
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.log(Level.FINE, "gate: cannot remove the Payara Host guard", e);
            }
        }
        installed.clear();
    }

    /**
     * True when Grizzly can read the Host value's port and the gate could accept it: no ':' outside
     * brackets, or 1–5 digits after the first one. A missing value is left to the server.
     */
    public static boolean wellFormed(String host) {
        if (host == null) {
            return true;
        }
        int from = 0;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0) {
                return false;
            }
            from = close + 1;
        }
        int colon = host.indexOf(':', from);
        return colon < 0 ? from == 0 || from == host.length() : PORT.matcher(host.substring(colon + 1)).matches();
    }

    /**
     * True when the server can decode the raw request path (no query): every '%' starts a two-hex-digit
     * escape, none is {@code %00}, and no segment is {@code .} or {@code ..} (browsers resolve those
     * before sending). A missing path is left to the server.
     */
    public static boolean decodable(String rawPath) {
        if (rawPath == null) {
            return true;
        }
        for (int i = rawPath.indexOf('%'); i >= 0; i = rawPath.indexOf('%', i + 1)) {
            if (i + 2 >= rawPath.length() || Character.digit(rawPath.charAt(i + 1), 16) < 0
                    || Character.digit(rawPath.charAt(i + 2), 16) < 0
                    || (rawPath.charAt(i + 1) == '0' && rawPath.charAt(i + 2) == '0')) {
                return false;
            }
        }
        for (String segment : rawPath.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** The probe: before the container reads the Host and the path, malformed ones are replaced. Other events are ignored. */
    private static final class Probe implements InvocationHandler {

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "onRequestReceiveEvent" -> guard(args[2]);
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "toString" -> {
                    return "qaldy Host guard";
                }
                default -> {
                    // nothing to do
                }
            }
            return null;
        }

        /** Methods looked up once, for the one request class the listener uses. */
        private volatile Method getRequest;
        private volatile Method getHeaders;
        private volatile Method values;
        private volatile Method setValue;
        private volatile Method setString;

        private volatile Method getRequestURI;
        private volatile Method setRequestURI;

        /** {@code request} is Grizzly's {@code http.server.Request}. */
        private void guard(Object request) throws ReflectiveOperationException {
            guardHost(request);
            Object packet = getRequest.invoke(request);
            if (getRequestURI == null) {
                getRequestURI = packet.getClass().getMethod("getRequestURI");
                setRequestURI = packet.getClass().getMethod("setRequestURI", String.class);
            }
            Object path = getRequestURI.invoke(packet);
            if (!decodable(path == null ? null : path.toString())) {
                setRequestURI.invoke(packet, MALFORMED_PATH);
            }
        }

        private void guardHost(Object request) throws ReflectiveOperationException {
            if (getRequest == null) {
                getRequest = request.getClass().getMethod("getRequest");
            }
            Object packet = getRequest.invoke(request);
            if (getHeaders == null) {
                getHeaders = packet.getClass().getMethod("getHeaders");
            }
            Object headers = getHeaders.invoke(packet);
            if (values == null) {
                values = headers.getClass().getMethod("values", String.class);
                setValue = headers.getClass().getMethod("setValue", String.class);
            }
            for (Object value : (Iterable<?>) values.invoke(headers, "Host")) {
                if (!wellFormed(value == null ? null : value.toString())) {
                    Object chunk = setValue.invoke(headers, "Host");
                    if (setString == null) {
                        setString = chunk.getClass().getMethod("setString", String.class);
                    }
                    setString.invoke(chunk, REPLACEMENT);
                    return;
                }
            }
        }
    }
}
