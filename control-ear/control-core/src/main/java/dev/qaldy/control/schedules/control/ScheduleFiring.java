package dev.qaldy.control.schedules.control;

import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.CronRule;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
        if (queue(schedule, plan, now)) {
            em.flush();
        }
        return plan;
    }

    /**
     * Fires what is due of many schedules in one transaction (after an outage, thousands catch up
     * at once): their rows are locked with one query, each is planned at most twice (a catch-up,
     * then asked again) and its runs are queued with their audit lines, as
     * {@link #fire} does. The rows are read as plain columns, never as entities: building the
     * schedules would clone their shared {@code App} from EclipseLink's cache for every row, and
     * under load (runs being dispatched meanwhile) that clone was seen waiting forever for a cache
     * lock, stopping the scheduler. All or nothing: when any schedule fails (another control plane
     * fired one first) the whole batch rolls back and the caller fires them one by one.
     *
     * @return how many runs were queued
     */
    public int fireAll(List<Long> scheduleIds, Instant now, CatchUpPlanner planner) {
        if (scheduleIds.isEmpty()) {
            return 0;
        }
        String ids = scheduleIds.stream().map(id -> Long.toString(id)).collect(Collectors.joining(","));
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT ID, APP_ID, CRON, ZONE, JOB, CREATED_AT, LAST_FIRED_TICK"
                + " FROM SCHEDULES WHERE ID IN (" + ids + ") ORDER BY ID FOR UPDATE").getResultList();
        Map<Long, String> appNames = appNames(rows);
        Map<String, CronRule> rules = new HashMap<>(); // one parse per distinct rule in the batch
        int fired = 0;
        for (Object[] row : rows) {
            long id = number(row[0]);
            long appId = number(row[1]);
            String appName = appNames.get(appId);
            String job = (String) row[4];
            CronRule rule = rules.computeIfAbsent(row[2] + " " + row[3], key -> CronRule.of((String) row[2], (String) row[3]));
            Instant createdAt = Instant.ofEpochMilli(number(row[5]));
            Instant lastFired = row[6] == null ? null : Instant.ofEpochMilli(number(row[6]));
            Instant firedNow = null;
            for (int round = 0; round < 2; round++) {
                CatchUpPlanner.Plan plan = planner.plan(now, rule, firedNow != null ? firedNow : lastFired, createdAt);
                Instant tick = plan instanceof CatchUpPlanner.CatchUp up ? up.tick()
                        : plan instanceof CatchUpPlanner.Ordinary ordinary ? ordinary.tick() : null;
                if (tick == null) {
                    break;
                }
                Instant last = firedNow != null ? firedNow : lastFired;
                if (appName == null || (last != null && !tick.isAfter(last))) {
                    throw new IllegalStateException("schedule " + id + ": no app, or tick " + tick + " not after " + last);
                }
                boolean catchUp = plan instanceof CatchUpPlanner.CatchUp;
                Run run = Run.scheduled(appId, appName, id, job, tick, catchUp, now);
                em.persist(run);
                queued(run, appId, appName, id, job, tick, catchUp);
                firedNow = tick;
                fired++;
                if (!catchUp) {
                    break;
                }
            }
            if (firedNow != null) {
                em.createNativeQuery("UPDATE SCHEDULES SET LAST_FIRED_TICK = ?1 WHERE ID = ?2")
                        .setParameter(1, firedNow.toEpochMilli()).setParameter(2, id).executeUpdate();
            }
        }
        em.flush();
        return fired;
    }

    /** The names of the apps the rows name, by id, in one query. */
    private Map<Long, String> appNames(List<Object[]> rows) {
        String appIds = rows.stream().map(row -> Long.toString(number(row[1]))).distinct().collect(Collectors.joining(","));
        Map<Long, String> names = new HashMap<>();
        if (appIds.isEmpty()) {
            return names;
        }
        @SuppressWarnings("unchecked")
        List<Object[]> apps = em.createNativeQuery("SELECT ID, NAME FROM APPS WHERE ID IN (" + appIds + ")").getResultList();
        for (Object[] app : apps) {
            names.put(number(app[0]), (String) app[1]);
        }
        return names;
    }

    private static long number(Object column) {
        return ((Number) column).longValue();
    }

    /** Queues the run {@code plan} asks for, with its audit line; false when the plan is nothing. */
    private boolean queue(Schedule schedule, CatchUpPlanner.Plan plan, Instant now) {
        Instant tick;
        boolean catchUp;
        if (plan instanceof CatchUpPlanner.CatchUp up) {
            tick = up.tick();
            catchUp = true;
        } else if (plan instanceof CatchUpPlanner.Ordinary ordinary) {
            tick = ordinary.tick();
            catchUp = false;
        } else {
            return false;
        }
        Run run = Run.scheduled(schedule, tick, catchUp, now);
        em.persist(run);
        schedule.fired(tick);
        queued(run, schedule.app().id(), schedule.app().name(), schedule.id(), schedule.job(), tick, catchUp);
        return true;
    }

    /** The audit line, the event that sends the run after commit, and the log line of one queued run. */
    private void queued(Run run, long appId, String appName, long scheduleId, String job, Instant tick, boolean catchUp) {
        audit.fire(new Audited(run.actor(), Run.AUDIT_RUN, appId, appName,
                "job " + job + " for tick " + tick + " (schedule " + scheduleId + ", run " + run.id() + ")"));
        queued.fire(new RunQueued(run.id()));
        if (catchUp) {
            log.log(Level.INFO, "scheduler: catch-up run {0} of {1} schedule {2} for missed tick {3}",
                    new Object[] {run.id(), appName, scheduleId, tick});
        } else {
            log.log(Level.FINE, "scheduler: run {0} of {1} schedule {2} for tick {3}",
                    new Object[] {run.id(), appName, scheduleId, tick});
        }
    }

    /** Every schedule's id, oldest first. */
    public List<Long> scheduleIds() {
        return em.createNamedQuery(Schedule.ALL_IDS, Long.class).getResultList();
    }
}
