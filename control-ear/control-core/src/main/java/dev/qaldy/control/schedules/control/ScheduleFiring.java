package dev.qaldy.control.schedules.control;

import dev.qaldy.control.audit.control.AuditRecorder;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.platform.control.BulkInsert;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.RunQueued;
import dev.qaldy.control.schedules.entity.Schedule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Fires what is due of a page of schedules in one transaction of its own, as a set (issue 9: 10,000
 * schedules catching up after an outage): their rows are locked with one {@code SELECT … FOR
 * UPDATE}, the app names read with one more query, the page is planned in memory
 * ({@link FiringPlan}), and the runs, their audit lines and the new last fired ticks are written
 * together: runs and audit lines with multi-row inserts ({@link BulkInsert}, 250 rows to a round
 * trip; ids from the entities' own sequences), the last fired ticks as one UPDATE per distinct tick.
 * Once the page commits each run is handed to the dispatcher ({@link RunQueued}).
 * <p>
 * Exactly once across restarts and control planes sharing the database: the row locks serialize
 * them (the second reads the first's last fired ticks and finds nothing due), and the unique
 * (schedule, tick) key of the run queue refuses a second run of one tick. All or nothing: when the
 * key refuses any run of the page, or a lock wait runs out, the whole page rolls back and the
 * caller fires its schedules one to a transaction, so one duplicate never costs the others their
 * runs.
 * <p>
 * The rows are read as plain columns, never as entities: building the schedules would clone their
 * shared {@code App} from EclipseLink's cache for every row, and under load that clone was seen
 * waiting forever for a cache lock, stopping the scheduler.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class ScheduleFiring {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AuditRecorder auditLog;

    @Inject
    Event<RunQueued> queued;

    @Inject
    CronRules rules;

    @Inject
    Logger log;

    /** The columns of a queued scheduled run (the others start NULL: hook, payload, started, finished). */
    private static final List<String> RUN_COLUMNS = List.of("ID", "APP_ID", "APP_NAME", "SCHEDULE_ID", "JOB", "TICK", "ACTOR",
            "STATE", "RUN_LOG", "ATTEMPTS", "CREATED_AT");

    /**
     * Fires what is due of the schedules {@code scheduleIds} (those that no longer exist are
     * skipped) at the time {@code clock} gives once their rows are locked: a page that waited for
     * the database or for another control plane's locks plans with the time it really fires at.
     *
     * @return how many runs were queued
     * @throws RuntimeException when the page could not be fired as a whole (nothing of it was written)
     */
    public int fireAll(List<Long> scheduleIds, Supplier<Instant> clock, CatchUpPlanner planner) {
        if (scheduleIds.isEmpty()) {
            return 0;
        }
        String ids = scheduleIds.stream().map(id -> Long.toString(id)).collect(Collectors.joining(","));
        @SuppressWarnings("unchecked")
        List<Object[]> columns = em.createNativeQuery("SELECT ID, APP_ID, CRON, ZONE, JOB, CREATED_AT, LAST_FIRED_TICK"
                + " FROM SCHEDULES WHERE ID IN (" + ids + ") ORDER BY ID FOR UPDATE").getResultList();
        Instant now = clock.get();
        List<FiringPlan.Row> rows = new ArrayList<>(columns.size());
        for (Object[] row : columns) {
            rows.add(new FiringPlan.Row(number(row[0]), number(row[1]), (String) row[2], (String) row[3], (String) row[4],
                    Instant.ofEpochMilli(number(row[5])), row[6] == null ? null : Instant.ofEpochMilli(number(row[6]))));
        }
        FiringPlan plan = FiringPlan.of(rows, appNames(rows), now, planner, rules::of);
        List<Long> runIds = BulkInsert.ids(em, Run.class, plan.runs().size());
        List<Object[]> runRows = new ArrayList<>(runIds.size());
        List<Audited> lines = new ArrayList<>(runIds.size());
        int catchUps = 0;
        for (int i = 0; i < runIds.size(); i++) {
            FiringPlan.Planned planned = plan.runs().get(i);
            Run run = Run.scheduled(planned.appId(), planned.appName(), planned.scheduleId(), planned.job(), planned.tick(),
                    planned.catchUp(), now); // checks the job name and the app, as for a persisted run
            long runId = runIds.get(i);
            runRows.add(new Object[] {runId, run.appId(), run.appName(), run.scheduleId(), run.job(), run.tick().toEpochMilli(),
                    run.actor(), run.state().name(), "", 0, run.createdAt().toEpochMilli()});
            lines.add(new Audited(run.actor(), Run.AUDIT_RUN, planned.appId(), planned.appName(),
                    "job " + planned.job() + " for tick " + planned.tick() + " (schedule " + planned.scheduleId() + ", run " + runId + ")"));
            log.log(Level.FINE, "scheduler: {0} run {1} of {2} schedule {3} for tick {4}",
                    new Object[] {run.actor(), runId, planned.appName(), planned.scheduleId(), planned.tick()});
            if (planned.catchUp()) {
                catchUps++;
            }
        }
        BulkInsert.insert(em, "RUNS", RUN_COLUMNS, runRows); // the unique (schedule, tick) key refuses a duplicate here
        auditLog.recordAll(lines);
        for (Map.Entry<Instant, List<Long>> fired : plan.lastFired().entrySet()) {
            String moved = fired.getValue().stream().map(id -> Long.toString(id)).collect(Collectors.joining(","));
            em.createNativeQuery("UPDATE SCHEDULES SET LAST_FIRED_TICK = ?1 WHERE ID IN (" + moved + ")")
                    .setParameter(1, fired.getKey().toEpochMilli()).executeUpdate();
        }
        for (long runId : runIds) {
            queued.fire(new RunQueued(runId)); // sent once the page commits
        }
        if (catchUps > 0) {
            log.log(Level.INFO, "scheduler: {0} catch-up runs queued (actor {1}) for schedules {2} to {3}",
                    new Object[] {catchUps, Run.CATCH_UP, rows.get(0).scheduleId(), rows.get(rows.size() - 1).scheduleId()});
        }
        return plan.runs().size();
    }

    /** The names of the apps the rows name, by id, in one query. */
    private Map<Long, String> appNames(List<FiringPlan.Row> rows) {
        String appIds = rows.stream().map(row -> Long.toString(row.appId())).distinct().collect(Collectors.joining(","));
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

    /** Every schedule's id, oldest first. */
    public List<Long> scheduleIds() {
        return em.createNamedQuery(Schedule.ALL_IDS, Long.class).getResultList();
    }
}
