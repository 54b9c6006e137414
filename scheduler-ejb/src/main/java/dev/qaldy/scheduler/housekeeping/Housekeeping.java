package dev.qaldy.scheduler.housekeeping;

import dev.qaldy.control.builds.control.BuildRecorder;
import dev.qaldy.control.people.control.SessionIssuer;
import dev.qaldy.control.people.control.SignInThrottle;
import dev.qaldy.control.tickets.boundary.Tickets;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The control plane's own upkeep. At start-up it fails builds that a previous run left queued or
 * running (no builder works on them any more); every minute it deletes expired tickets, sign-in
 * failures older than their window and sign-out marks of expired tokens. The timer is not
 * persistent: a missed minute is simply done by the next one.
 *
 * <p>The timer only hands the sweep to the managed executor: the sweep's transactions (and their
 * rollbacks while the database is down) never run in the timer's own delivery, which Payara
 * otherwise counts as failed and, after two, expunges for good, leaving the scheduler not ready
 * until a restart (found by the drill: a database outage across a minute boundary). A sweep that
 * would start while the last one still runs is skipped; no container lock, so the readiness check
 * never waits.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Housekeeping {

    @Inject
    Tickets tickets;

    @Inject
    SignInThrottle throttle;

    @Inject
    SessionIssuer sessions;

    @Inject
    BuildRecorder builds;

    @Inject
    Logger log;

    @Resource
    TimerService timers;

    @Resource
    ManagedExecutorService executor;

    private final AtomicBoolean busy = new AtomicBoolean();

    /** Whether this scheduler's timer is armed (a readiness fact: a scheduler without timers fires nothing). */
    public boolean ticking() {
        return !timers.getTimers().isEmpty();
    }

    @PostConstruct
    void failInterruptedBuilds() {
        try {
            int failed = builds.failInterrupted();
            if (failed > 0) {
                log.log(Level.INFO, "failed {0} builds interrupted by a restart", failed);
            }
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "cannot check for interrupted builds (database down?): {0}", e.toString());
        }
    }

    /** Every minute: hands {@link #sweepNow()} to the executor; never throws, never waits for the database. */
    @Schedule(hour = "*", minute = "*", second = "0", persistent = false, info = "qaldy housekeeping")
    public void sweep() {
        if (!busy.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(this::sweepNow);
        } catch (RuntimeException e) {
            busy.set(false);
            log.log(Level.WARNING, "housekeeping skipped this minute (executor refused): {0}", e.toString());
        }
    }

    /** Deletes what no longer counts; never throws (the next minute tries again). */
    void sweepNow() {
        try {
            int expiredTickets = tickets.purgeExpired();
            int oldFailures = throttle.forgetOld();
            int oldSignOuts = sessions.forgetExpiredSignOuts();
            Level level = expiredTickets + oldFailures + oldSignOuts > 0 ? Level.INFO : Level.FINE;
            log.log(level, "housekeeping: deleted {0} expired tickets, {1} old sign-in failures, {2} old sign-out marks",
                    new Object[] {expiredTickets, oldFailures, oldSignOuts});
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "housekeeping skipped this minute (database down?): {0}", e.toString());
        } finally {
            busy.set(false);
        }
    }
}
