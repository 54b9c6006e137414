package dev.qaldy.control.schedules.control;

import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.RunQueued;
import dev.qaldy.control.schedules.entity.Schedule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Fires at most one due tick of one schedule, in a transaction of its own: the schedule's row is
 * locked, the planner decides from its last fired tick, and the run is queued together with the
 * new last fired tick and its audit line. Exactly once across restarts and control planes sharing
 * the database: the row lock serializes them, and the unique (schedule, tick) key of the run
 * queue refuses a second run of one tick (the loser's transaction rolls back: nothing happens).
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class ScheduleFiring {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    Event<Audited> audit;

    @Inject
    Event<RunQueued> queued;

    @Inject
    Logger log;

    /**
     * @return the plan that was carried out ({@link CatchUpPlanner.Nothing} when nothing was due or the schedule is gone)
     */
    public CatchUpPlanner.Plan fire(long scheduleId, Instant now, CatchUpPlanner planner) {
        Schedule schedule = em.find(Schedule.class, scheduleId, LockModeType.PESSIMISTIC_WRITE);
        if (schedule == null) {
            return new CatchUpPlanner.Nothing();
        }
        CatchUpPlanner.Plan plan = planner.plan(now, schedule.rule(), schedule.lastFiredTick(), schedule.createdAt());
        Instant tick;
        boolean catchUp;
        if (plan instanceof CatchUpPlanner.CatchUp up) {
            tick = up.tick();
            catchUp = true;
        } else if (plan instanceof CatchUpPlanner.Ordinary ordinary) {
            tick = ordinary.tick();
            catchUp = false;
        } else {
            return plan;
        }
        Run run = Run.scheduled(schedule, tick, catchUp, now);
        em.persist(run);
        schedule.fired(tick);
        em.flush();
        audit.fire(new Audited(run.actor(), Run.AUDIT_RUN, schedule.app().id(), schedule.app().name(),
                "job " + schedule.job() + " for tick " + tick + " (schedule " + schedule.id() + ", run " + run.id() + ")"));
        queued.fire(new RunQueued(run.id()));
        if (catchUp) {
            log.log(Level.INFO, "scheduler: catch-up run {0} of {1} schedule {2} for missed tick {3}",
                    new Object[] {run.id(), schedule.app().name(), schedule.id(), tick});
        } else {
            log.log(Level.FINE, "scheduler: run {0} of {1} schedule {2} for tick {3}",
                    new Object[] {run.id(), schedule.app().name(), schedule.id(), tick});
        }
        return plan;
    }

    /** Every schedule's id, oldest first. */
    public java.util.List<Long> scheduleIds() {
        return em.createNamedQuery(Schedule.ALL_IDS, Long.class).getResultList();
    }
}
