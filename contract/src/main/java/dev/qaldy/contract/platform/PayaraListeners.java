package dev.qaldy.contract.platform;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Closes Payara's HTTP listeners when the process stops, before the application goes down, so a
 * request in the meantime finds the port closed (a refused connection, which browsers and the
 * cell's clients read as "not running") instead of a half-stopped application.
 *
 * <p>Why: on SIGTERM Payara Micro stops its applications before its listeners, and a request that
 * arrived then was answered by the server with a 500 that no application code wrote (found by
 * {@code GateRestartIT}). {@code bin/qaldy} keeps the listener closed at the start too (enabled after
 * deployment), so the port is open exactly while the application answers.
 *
 * <p>How: each listener's network proxy is taken out of Payara's {@code GrizzlyService} and closed,
 * by reflection (nothing here is compiled against Payara; on any other server, Open Liberty
 * included, it finds nothing and does nothing), and only while the JVM is shutting down: an
 * application undeployed from a running server leaves the server's listeners alone.
 */
public final class PayaraListeners {

    private PayaraListeners() {
    }

    /**
     * Call as the application is about to stop (CDI {@code @BeforeDestroyed(ApplicationScoped.class)}).
     *
     * @param server the application's class loader (it sees Payara's classes)
     * @param who    the component, for the log line ({@code gate}, {@code runtime})
     */
    public static void closeAtShutdown(ClassLoader server, Logger log, String who) {
        if (!jvmShuttingDown()) {
            return;
        }
        Object locator;
        try {
            locator = Class.forName("org.glassfish.internal.api.Globals", true, server).getMethod("getDefaultHabitat").invoke(null);
        } catch (ReflectiveOperationException | LinkageError notPayara) {
            return;
        }
        try {
            Class<?> serviceLocator = Class.forName("org.glassfish.hk2.api.ServiceLocator", false, server);
            Class<?> grizzlyType = Class.forName("com.sun.enterprise.v3.services.impl.GrizzlyService", false, server);
            Class<?> listenerType = Class.forName("org.glassfish.grizzly.config.dom.NetworkListener", false, server);
            Class<?> proxyType = Class.forName("com.sun.enterprise.v3.services.impl.NetworkProxy", false, server);
            Object grizzly = serviceLocator.getMethod("getService", Class.class, Annotation[].class)
                    .invoke(locator, grizzlyType, new Annotation[0]);
            int closed = 0;
            for (Object listener : (List<?>) serviceLocator.getMethod("getAllServices", Class.class, Annotation[].class)
                    .invoke(locator, listenerType, new Annotation[0])) {
                Object proxy = grizzlyType.getMethod("lookupNetworkProxy", listenerType).invoke(grizzly, listener);
                if (proxy != null) {
                    grizzlyType.getMethod("removeNetworkProxy", proxyType).invoke(grizzly, proxy);
                    grizzlyType.getMethod("closeNetworkProxy", proxyType).invoke(grizzly, proxy);
                    closed++;
                }
            }
            log.log(Level.INFO, "{0}: stopping: {1} HTTP listener(s) closed before the application stops", new Object[] {who, closed});
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.log(Level.WARNING, who + ": stopping: cannot close the HTTP listeners first; requests meanwhile reach a stopping application", e);
        }
    }

    /** True while the JVM runs its shutdown hooks (a hook can then no longer be added). */
    static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { }, "qaldy-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shuttingDown) {
            return true;
        }
    }
}
