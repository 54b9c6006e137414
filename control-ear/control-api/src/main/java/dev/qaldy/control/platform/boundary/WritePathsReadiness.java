package dev.qaldy.control.platform.boundary;

import dev.qaldy.control.billing.entity.BillingClock;
import dev.qaldy.control.platform.control.OwnThreads;
import dev.qaldy.control.platform.control.SequenceRows;
import dev.qaldy.control.platform.control.WriteLocks;
import dev.qaldy.control.platform.entity.SequenceRow;
import dev.qaldy.control.sharing.entity.SharingClock;
import dev.qaldy.control.shield.entity.ShieldClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of the write paths that take one sequence row each: "billing-writes" (the
 * {@code BILLING_CLOCK} row: cap changes, usage reports, a new account's first cap state),
 * "shield-writes" ({@code SHIELD_CLOCK}) and "sharing-writes" ({@code SHARING_CLOCK}). A check is
 * DOWN while its row cannot be locked within {@code qaldy.control.write-lock-probe} (default 1 s):
 * a transaction holds it and does not end, so every write of that path would wait for the lock
 * timeout and fail (issue 14). The change of state is logged once each way; turning DOWN, with the
 * stacks of the threads in Qaldy's code ({@link OwnThreads}), so the log says who holds the row.
 */
@ApplicationScoped
public class WritePathsReadiness {

    @Inject
    WriteLocks locks;

    @Inject
    Logger log;

    /** How long a probe waits for a row: longer than any healthy change holds it, shorter than the lock timeout (2 s). */
    @Inject
    @ConfigProperty(name = "qaldy.control.write-lock-probe", defaultValue = "PT1S")
    Duration probe;

    /** Most threads, and frames of each, in the log line of a path turning DOWN. */
    static final int MAX_THREADS_LOGGED = 40;
    static final int MAX_FRAMES_LOGGED = 60;

    private final Map<String, Boolean> wedged = new ConcurrentHashMap<>();

    @Produces
    @Readiness
    HealthCheck billingWrites() {
        return () -> check("billing-writes", BillingClock.class);
    }

    @Produces
    @Readiness
    HealthCheck shieldWrites() {
        return () -> check("shield-writes", ShieldClock.class);
    }

    @Produces
    @Readiness
    HealthCheck sharingWrites() {
        return () -> check("sharing-writes", SharingClock.class);
    }

    HealthCheckResponse check(String name, Class<? extends SequenceRow> row) {
        String table = SequenceRows.table(row);
        boolean free;
        try {
            free = locks.free(row, probe);
        } catch (RuntimeException e) {
            return HealthCheckResponse.named(name).down().withData("lock", table).withData("error", e.getClass().getSimpleName()).build();
        }
        Boolean before = wedged.put(name, !free);
        if (free) {
            if (Boolean.TRUE.equals(before)) {
                log.log(Level.INFO, "{0}: the {1} row can be locked again", new Object[] {name, table});
            }
            return HealthCheckResponse.named(name).up().build();
        }
        String why = "the " + table + " row is held by a transaction that did not end within " + probe.toMillis()
                + " ms: its writes wait for the lock timeout and fail";
        if (!Boolean.TRUE.equals(before)) {
            // Who holds it: a request still inside its transaction, or none (the transaction was left behind).
            log.log(Level.WARNING, "{0} not ready: {1}. This process''s threads in Qaldy''s code now:\n{2}",
                    new Object[] {name, why, OwnThreads.dump(MAX_THREADS_LOGGED, MAX_FRAMES_LOGGED)});
        }
        return HealthCheckResponse.named(name).down().withData("lock", table).withData("error", why).build();
    }
}
