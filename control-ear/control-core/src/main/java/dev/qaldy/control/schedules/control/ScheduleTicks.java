package dev.qaldy.control.schedules.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * One scheduler tick over every schedule, a page of {@link #PAGE} schedules to a transaction
 * ({@link ScheduleFiring#fireAll}: read, planned and written as a set), each page planned at the time
 * the database answered for it. A page that fails as a whole (another control plane fired one of its
 * schedules first, so the unique (schedule, tick) key refused a run; a lock wait ran out) is fired
 * again one schedule to a transaction, so the others still get their runs; a schedule whose own
 * transaction fails is left for the next tick. When the database cannot be read nothing fires at all.
 */
@ApplicationScoped
public class ScheduleTicks {

    /** Schedules fired in one transaction (issue 9: 10,000 catching up at once took one transaction each). */
    static final int PAGE = 500;

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
        return fireDue(firing.scheduleIds(), () -> now);
    }

    /**
     * Fires whatever is due when the database answered: the time is read from {@code clock} only
     * after the schedules were read, so a tick that waited for a database coming back plans with
     * the time it really fires at (found by bin/qaldy drill: planned with the time before the wait,
     * a tick missed during the outage ran as an ordinary tick beside the catch-up, two runs).
     *
     * @return how many runs were queued
     * @throws RuntimeException when the schedules cannot be read (database down): nothing fired
     */
    public int fireDue(Clock clock) {
        List<Long> ids = firing.scheduleIds();
        return fireDue(ids, clock::instant);
    }

    /** Fires the schedules {@code ids}, each page planned at the time {@code clock} gives once its rows are read. */
    private int fireDue(List<Long> ids, Supplier<Instant> clock) {
        int fired = 0;
        for (int from = 0; from < ids.size(); from += PAGE) {
            List<Long> batch = ids.subList(from, Math.min(ids.size(), from + PAGE));
            try {
                fired += firing.fireAll(batch, clock, planner);
            } catch (RuntimeException e) {
                log.log(Level.FINE, "scheduler: a page of {0} schedules failed as one ({1}); firing them one by one",
                        new Object[] {batch.size(), e.toString()});
                for (long id : batch) {
                    fired += fireOne(id, clock);
                }
            }
        }
        return fired;
    }

    /** One schedule in a transaction of its own (the page it was in failed as a whole). */
    private int fireOne(long id, Supplier<Instant> clock) {
        try {
            return firing.fireAll(List.of(id), clock, planner);
        } catch (RuntimeException e) {
            log.log(Level.FINE, "scheduler: schedule {0} not fired this tick (another control plane,"
                    + " or the database): {1}", new Object[] {id, e.toString()});
            return 0;
        }
    }
}
