package dev.qaldy.control.platform.boundary;

import dev.qaldy.scheduler.housekeeping.Housekeeping;
import dev.qaldy.scheduler.ticks.Ticker;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of the builder (its managed executor runs a task within 1 s) and of the scheduler (its
 * housekeeping and schedules timers are armed), named "builder" and "scheduler" so the status page
 * can show them as components.
 */
@ApplicationScoped
public class BuilderAndSchedulerReadiness {

    /*
     * Looked up when the check runs, not injected: on Payara Server the EAR's @Resource field here was
     * taken for an env-entry of type String ("Exception attempting to inject Env-Prop:
     * …BuilderAndSchedulerReadiness/builder@java.lang.String"), with or without a lookup name, and the
     * control plane did not deploy. The same default executor on every server.
     */
    private static ManagedExecutorService builderExecutor() throws javax.naming.NamingException {
        return javax.naming.InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
    }

    @Inject
    Housekeeping scheduler;

    @Inject
    Ticker schedules;

    @Produces
    @Readiness
    HealthCheck builder() {
        return () -> {
            try {
                return builderExecutor().submit(() -> Boolean.TRUE).get(1, TimeUnit.SECONDS)
                        ? HealthCheckResponse.up("builder") : HealthCheckResponse.down("builder");
            } catch (ExecutionException | TimeoutException | javax.naming.NamingException | RuntimeException e) {
                return HealthCheckResponse.down("builder");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return HealthCheckResponse.down("builder");
            }
        };
    }

    @Produces
    @Readiness
    HealthCheck scheduler() {
        return () -> {
            try {
                return scheduler.ticking() && schedules.ticking() ? HealthCheckResponse.up("scheduler") : HealthCheckResponse.down("scheduler");
            } catch (RuntimeException e) {
                return HealthCheckResponse.down("scheduler");
            }
        };
    }
}
