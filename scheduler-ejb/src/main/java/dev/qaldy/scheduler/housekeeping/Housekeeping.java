package dev.qaldy.scheduler.housekeeping;

import dev.qaldy.control.builds.control.BuildRecorder;
import dev.qaldy.control.people.control.SessionIssuer;
import dev.qaldy.control.people.control.SignInThrottle;
import dev.qaldy.control.tickets.boundary.Tickets;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The control plane's own upkeep. At start-up it fails builds that a previous run left queued or
 * running (no builder works on them any more); every minute it deletes expired tickets, sign-in
 * failures older than their window and sign-out marks of expired tokens. The timer is not
 * persistent: a missed minute is simply done by the next one.
 */
@Singleton
@Startup
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

    /** Every minute: deletes what no longer counts; never throws, so a bad minute does not stop the timer. */
    @Schedule(hour = "*", minute = "*", second = "0", persistent = false, info = "qaldy housekeeping")
    public void sweep() {
        try {
            int expiredTickets = tickets.purgeExpired();
            int oldFailures = throttle.forgetOld();
            int oldSignOuts = sessions.forgetExpiredSignOuts();
            Level level = expiredTickets + oldFailures + oldSignOuts > 0 ? Level.INFO : Level.FINE;
            log.log(level, "housekeeping: deleted {0} expired tickets, {1} old sign-in failures, {2} old sign-out marks",
                    new Object[] {expiredTickets, oldFailures, oldSignOuts});
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "housekeeping skipped this minute (database down?): {0}", e.toString());
        }
    }
}
