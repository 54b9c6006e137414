package dev.qaldy.control.schedules.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * One scheduler tick over every schedule: each is planned and fired in a transaction of its own
 * ({@link ScheduleFiring}), at most twice (a catch-up, then the ordinary tick due now). A schedule
 * whose transaction fails (another control plane fired it first, a lock wait ran out) is left for
 * the next tick. When the database cannot be read nothing fires at all.
 */
@ApplicationScoped
public class ScheduleTicks {

    @Inject
    ScheduleFiring firing;

    @Inject
    @ConfigProperty(name = "qaldy.scheduler.catchup-window", defaultValue = "PT6H")
    Duration window;

    @Inject
    @ConfigProperty(name = "qaldy.scheduler.tick-interval", defaultValue = "PT15S")
    Duration interval;

    @Inject
    Logger log;

    private CatchUpPlanner planner;

    @PostConstruct
    void configure() {
        planner = new CatchUpPlanner(window, interval.multipliedBy(2));
    }

    /** How often the timer should call {@link #fireDue}. */
    public Duration interval() {
        return interval;
    }

    /**
     * Fires whatever is due at {@code now}.
     *
     * @return how many runs were queued
     * @throws RuntimeException when the schedules cannot be read (database down): nothing fired
     */
    public int fireDue(Instant now) {
        List<Long> ids = firing.scheduleIds();
        int fired = 0;
        for (long id : ids) {
            for (int round = 0; round < 2; round++) {
                CatchUpPlanner.Plan plan;
                try {
                    plan = firing.fire(id, now, planner);
                } catch (RuntimeException e) {
                    log.log(Level.FINE, "scheduler: schedule {0} not fired this tick (another control plane,"
                            + " or the database): {1}", new Object[] {id, e.toString()});
                    break;
                }
                if (plan instanceof CatchUpPlanner.Nothing) {
                    break;
                }
                fired++;
                if (plan instanceof CatchUpPlanner.Ordinary) {
                    break;
                }
            }
        }
        return fired;
    }
}
