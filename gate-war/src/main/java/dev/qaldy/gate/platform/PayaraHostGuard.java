package dev.qaldy.gate.platform;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Lets malformed requests reach the gate's own pages on Payara Micro, which otherwise answers them
 * before any application code runs.
 *
 * <p>Why: Grizzly ({@code HttpCodecUtils.parseHost}) throws on a Host port that is not hex digits
 * ({@code app.localhost:8080@evil}), and a path Payara cannot decode ({@code /%ZZ}, {@code %00},
 * {@code /../}) logs a SEVERE trace; Payara then sends an empty 200 or 400. No listener setting,
 * filter, valve or error page changes that.
 *
 * <p>How: a Grizzly {@code HttpServerProbe} ({@link MalformedRequests}) on every HTTP listener,
 * found by reflection (nothing else to do on another server), rewrites a bad Host to
 * {@value MalformedRequests#REPLACEMENT} (the router's 400) and a bad path to
 * {@value MalformedRequests#MALFORMED_PATH} (the "bad path" 400). The codec filters also get
 * {@link OversizedHeaders} (431, issue 20) and {@link SlowClients}' probes (issue 16). Listeners
 * enabled after deployment ({@code bin/qaldy} enables the port only then) get the probes within
 * about a millisecond of starting, via Payara's mapper-update listener.
 */
@ApplicationScoped
public class PayaraHostGuard {

    /** Longest wait for a new listener's filter chain after Payara announced it. */
    static final Duration WAIT_FOR_FILTERS = Duration.ofSeconds(10);

    @Inject
    Logger log;

    @Inject
    SlowClients slowClients;

    @Resource
    ManagedThreadFactory threads;

    /** {monitoring config, probe array} pairs; guarded by itself. */
    private final List<Object[]> installed = new ArrayList<>();
    private Payara payara;
    private Object mapperListener;

    private record Payara(Object locator, Object grizzly, Method getAllServices, Method lookup, Class<?> listenerType,
            Class<?> serverFilterType, Object probes, Class<?> codecFilterType, Object codecProbes, Object connectionProbes) {
    }

    private static Object probes(Class<?> type, InvocationHandler... handlers) {
        Object probes = Array.newInstance(type, handlers.length);
        for (int i = 0; i < handlers.length; i++) {
            Array.set(probes, i, Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handlers[i]));
        }
        return probes;
    }

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
            Class<?> grizzlyServiceType = Class.forName("com.sun.enterprise.v3.services.impl.GrizzlyService", false, server);
            Class<?> listenerType = Class.forName("org.glassfish.grizzly.config.dom.NetworkListener", false, server);
            Object probes = probes(probeType, new MalformedRequests(), slowClients.serverEvents());
            Class<?> codecProbeType = Class.forName("org.glassfish.grizzly.http.HttpProbe", false, server);
            Object codecProbes = probes(codecProbeType, new OversizedHeaders(), slowClients.codecEvents());
            Object connectionProbes = probes(Class.forName("org.glassfish.grizzly.ConnectionProbe", false, server),
                    slowClients.connectionEvents());
            payara = new Payara(locator, getService.invoke(locator, grizzlyServiceType, new Annotation[0]),
                    serviceLocator.getMethod("getAllServices", Class.class, Annotation[].class),
                    grizzlyServiceType.getMethod("lookupNetworkProxy", listenerType), listenerType,
                    Class.forName("org.glassfish.grizzly.http.server.HttpServerFilter", false, server), probes,
                    Class.forName("org.glassfish.grizzly.http.HttpServerFilter", false, server), codecProbes, connectionProbes);
            watchNewListeners(server, grizzlyServiceType);
            int filters = 0;
            for (Object listener : (List<?>) payara.getAllServices().invoke(locator, listenerType, new Annotation[0])) {
                filters += install(listener).added();
            }
            slowClients.watch();
            log.log(Level.INFO, "gate: Payara Host guard on {0} HTTP listener filter(s){1}: a malformed Host port gets the gate''s 400,"
                    + " headers past the listener''s bound a 431, a request head slower than its deadline a closed connection",
                    new Object[] {filters, mapperListener == null ? "" : "; listeners enabled later get it as they are created"});
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.log(Level.WARNING, "gate: cannot install the Payara Host guard; a malformed Host port gets Payara's empty answer", e);
        }
    }

    private void watchNewListeners(ClassLoader server, Class<?> grizzlyServiceType) throws ReflectiveOperationException {
        Class<?> mapperUpdateListener = Class.forName("com.sun.enterprise.v3.services.impl.MapperUpdateListener", false, server);
        Object listener = Proxy.newProxyInstance(mapperUpdateListener.getClassLoader(), new Class<?>[] {mapperUpdateListener},
                (proxy, method, args) -> switch (method.getName()) {
                    case "update" -> {
                        Object created = args[1];
                        Thread waiting = threads.newThread(() -> installWhenBuilt(created));
                        waiting.setName("qaldy-host-guard");
                        waiting.start();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "qaldy Host guard (new listeners)";
                    default -> null;
                });
        grizzlyServiceType.getMethod("addMapperUpdateListener", mapperUpdateListener).invoke(payara.grizzly(), listener);
        mapperListener = listener;
    }

    /** {@code built}: the listener's HTTP filters exist; {@code accepting}: its transport had started. */
    private record Installed(int added, boolean built, boolean accepting, boolean listening) {
    }

    /** Waits (at most {@link #WAIT_FOR_FILTERS}, polling every ms) for a new listener's filters, then adds the probes. */
    private void installWhenBuilt(Object listener) {
        long announced = System.nanoTime();
        long deadline = announced + WAIT_FOR_FILTERS.toNanos();
        try {
            while (System.nanoTime() - deadline < 0) {
                Installed done = install(listener);
                if (done.built() && done.listening()) { // filters built and port bound: every probe is on
                    if (done.added() > 0) {
                        log.log(Level.INFO, "gate: Payara Host guard on {0} filter(s) of a listener enabled now{1}", new Object[] {
                            done.added(), done.accepting() ? ", " + waited(announced) + " after Payara announced it" : ", before it started"});
                    }
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            log.log(Level.WARNING, "gate: a new HTTP listener was not built and bound within {0}; its Host guard or slow-client"
                    + " probes may be missing", WAIT_FOR_FILTERS);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.log(Level.WARNING, "gate: cannot add the Payara Host guard to a new listener", e);
        }
    }

    private static String waited(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) + " ms";
    }

    private Installed install(Object listener) throws ReflectiveOperationException {
        Object proxy = payara.lookup().invoke(payara.grizzly(), listener);
        Object grizzlyListener = proxy == null ? null : proxy.getClass().getMethod("getUnderlyingListener").invoke(proxy);
        if (grizzlyListener == null) {
            return new Installed(0, false, false, false);
        }
        List<?> filters;
        try {
            filters = (List<?>) grizzlyListener.getClass().getMethod("getFilters", Class.class)
                    .invoke(grizzlyListener, payara.serverFilterType());
        } catch (InvocationTargetException notBuiltYet) {
            return new Installed(0, false, false, false);
        }
        if (filters == null || filters.isEmpty()) {
            return new Installed(0, false, false, false);
        }
        Object transport = grizzlyListener.getClass().getMethod("getTransport").invoke(grizzlyListener);
        boolean accepting = transport != null && !(Boolean) transport.getClass().getMethod("isStopped").invoke(transport);
        int added = addProbes(filters, payara.serverFilterType(), payara.probes());
        boolean listening = false;
        if (transport != null) {
            // Accepted connections copy the transport's probes (their closes); accepts are told to the listening ones'.
            addProbes(List.of(transport), transport.getClass(), "getConnectionMonitoringConfig", payara.connectionProbes());
            List<?> bound = listeningConnections(transport);
            if (!bound.isEmpty()) {
                addProbes(bound, bound.get(0).getClass(), "getMonitoringConfig", payara.connectionProbes());
                listening = true;
            }
        }
        try {
            List<?> codecs = (List<?>) grizzlyListener.getClass().getMethod("getFilters", Class.class)
                    .invoke(grizzlyListener, payara.codecFilterType());
            addProbes(codecs == null ? List.of() : codecs, payara.codecFilterType(), payara.codecProbes());
        } catch (InvocationTargetException | RuntimeException e) {
            log.log(Level.FINE, "gate: no HTTP codec filter to tell oversized headers: {0}", e.toString());
        }
        return new Installed(added, true, accepting, listening);
    }

    /** Grizzly's {@code TCPNIOTransport.serverConnections}, which has no getter. */
    private static List<?> listeningConnections(Object transport) throws ReflectiveOperationException {
        for (Class<?> type = transport.getClass(); type != null; type = type.getSuperclass()) {
            try {
                java.lang.reflect.Field field = type.getDeclaredField("serverConnections");
                field.setAccessible(true);
                Object connections = field.get(transport);
                if (connections instanceof java.util.Collection<?> all) {
                    synchronized (all) {
                        return List.copyOf(all);
                    }
                }
                return List.of();
            } catch (NoSuchFieldException notHere) {
                // look in the superclass
            }
        }
        return List.of();
    }

    private int addProbes(List<?> filters, Class<?> filterType, Object probes) throws ReflectiveOperationException {
        return addProbes(filters, filterType, "getMonitoringConfig", probes);
    }

    /** Adds {@code probes} to each owner's monitoring config ({@code getter}) that lacks them; returns how many. */
    private int addProbes(List<?> owners, Class<?> ownerType, String getter, Object probes) throws ReflectiveOperationException {
        int added = 0;
        synchronized (installed) {
            for (Object filter : owners) {
                Object monitoring = ownerType.getMethod(getter).invoke(filter);
                if (installed.stream().noneMatch(entry -> entry[0] == monitoring)) {
                    monitoring.getClass().getMethod("addProbes", Object[].class).invoke(monitoring, probes);
                    installed.add(new Object[] {monitoring, probes});
                    added++;
                }
            }
        }
        return added;
    }

    @PreDestroy
    void stop() {
        if (mapperListener != null) {
            try {
                Class<?> type = mapperListener.getClass().getInterfaces()[0];
                payara.grizzly().getClass().getMethod("removeMapperUpdateListener", type).invoke(payara.grizzly(), mapperListener);
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.log(Level.FINE, "gate: cannot stop watching for new listeners", e);
            }
            mapperListener = null;
        }
        synchronized (installed) {
            for (Object[] entry : installed) {
                try {
                    entry[0].getClass().getMethod("removeProbes", Object[].class).invoke(entry[0], entry[1]);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    log.log(Level.FINE, "gate: cannot remove the Payara Host guard", e);
                }
            }
            installed.clear();
        }
    }
}
