package dev.qaldy.scheduler.housekeeping;

import dev.qaldy.control.builds.control.BuildRecorder;
import dev.qaldy.control.people.control.SessionIssuer;
import dev.qaldy.control.people.control.SignInThrottle;
import dev.qaldy.control.tickets.boundary.Tickets;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The control plane's own upkeep. At start-up it fails builds that a previous run left queued or
 * running (no builder works on them any more); every minute it deletes expired tickets, sign-in
 * failures older than their window and sign-out marks of expired tokens. The timer is a
 * non-persistent interval timer, not {@code @Schedule}: Payara expunged the calendar timer after
 * two deliveries that met a stopped database (EJB5119), although the method catches everything,
 * and the control plane then never swept again (and was never ready again). {@link #ticking()}
 * also re-arms a timer the container dropped. A missed minute is simply done by the next one.
 *
 * <p>The timer only hands the sweep to the managed executor: the sweep's transactions (and their
 * rollbacks while the database is down) never run in the timer's own delivery, which Payara
 * otherwise counts as failed. A sweep that would start while the last one still runs is skipped;
 * no container lock, so the readiness check never waits.
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

    /** Whether the builds an earlier process left unfinished were failed (needs the database once). */
    private final AtomicBoolean interruptedBuildsChecked = new AtomicBoolean();

    /** When this control plane started; builds uploaded before it and still unfinished were interrupted. */
    volatile Instant startedAt;

    /** Between sweeps, ms. */
    static final long SWEEP_INTERVAL_MS = 60_000;

    /**
     * Whether this scheduler's timer is armed (a readiness fact: a scheduler without timers fires
     * nothing); one the container dropped is armed again first, and logged.
     */
    public synchronized boolean ticking() {
        if (timers.getTimers().isEmpty()) {
            log.log(Level.WARNING, "housekeeping: its timer was gone (dropped by the container); armed again");
            arm();
        }
        return !timers.getTimers().isEmpty();
    }

    private void arm() {
        timers.createIntervalTimer(SWEEP_INTERVAL_MS, SWEEP_INTERVAL_MS, new TimerConfig("qaldy housekeeping", false));
    }

    @PostConstruct
    void start() {
        startedAt = builds.now();
        arm();
        failInterruptedBuilds();
    }

    /**
     * Fails the builds an earlier process left queued or running, once: at start, or at the first
     * sweep that reaches the database if it was down at start. Never throws.
     */
    void failInterruptedBuilds() {
        if (interruptedBuildsChecked.get()) {
            return;
        }
        try {
            int failed = builds.failInterrupted(startedAt);
            interruptedBuildsChecked.set(true);
            if (failed > 0) {
                log.log(Level.INFO, "failed {0} builds interrupted by a restart", failed);
            }
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "cannot check for interrupted builds yet (database down?), trying again each minute: {0}",
                    e.toString());
        }
    }

    /** Every minute: hands {@link #sweepNow()} to the executor; never throws, never waits for the database. */
    @Timeout
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

    /** Fails interrupted builds if not done yet, deletes what no longer counts; never throws (the next minute tries again). */
    void sweepNow() {
        failInterruptedBuilds();
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
