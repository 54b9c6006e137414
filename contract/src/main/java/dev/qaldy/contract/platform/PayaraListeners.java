package dev.qaldy.contract.platform;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Closes Payara's HTTP listeners when the JVM stops, before the application goes down, so a request
 * meanwhile is refused instead of answered 500 by a half-stopped server (Payara Micro stops apps
 * before listeners on SIGTERM; found by {@code GateRestartIT}). By reflection: on any other server it
 * does nothing, and an undeploy from a running server leaves the listeners alone.
 */
public final class PayaraListeners {

    private PayaraListeners() {
    }

    /**
     * Call from {@code @BeforeDestroyed(ApplicationScoped.class)}.
     *
     * @param server the application's class loader (it sees Payara's classes)
     * @param who    for the log line ({@code gate}, {@code runtime})
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
