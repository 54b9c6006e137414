package dev.qaldy.control.schedules.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.schedules.control.LiveJobs;
import dev.qaldy.control.schedules.entity.CronRule;
import dev.qaldy.control.schedules.entity.JobName;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.Schedule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** An app's schedules (cron, zone, job) and the runs of its jobs, for its owner. */
@ApplicationScoped
@Transactional
public class Schedules {

    /** Most schedules one app may have. */
    public static final int MAX_PER_APP = 20;
    /** Largest page of runs. */
    public static final int MAX_RUNS_PAGE = 200;

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    @Inject
    LiveJobs liveJobs;

    /**
     * A schedule just added.
     *
     * @param note null when the live version registers the job; else why the job could not be checked
     */
    public record Added(Schedule schedule, String note) {
    }

    /** Whether owners may add 6-field cron expressions with a seconds field (demos, tests); off: 5 fields only. */
    @Inject
    @ConfigProperty(name = "qaldy.scheduler.allow-seconds", defaultValue = "false")
    boolean allowSeconds;

    /** The app's schedules, oldest first (owner only). */
    public List<Schedule> list(Session me, String appName) {
        App app = guard.owned(me, appName);
        return em.createNamedQuery(Schedule.OF_APP, Schedule.class).setParameter("app", app).getResultList();
    }

    /**
     * Adds a schedule (owner only); it first fires at the first tick after now. The job must be one the
     * app's live version registers ({@link LiveJobs}); with no live version yet, or one whose jobs are
     * not known, the schedule is added with a note saying the job was not checked.
     *
     * @param zone an IANA zone; null or blank for UTC
     * @throws InvalidInput for a bad cron expression (6 fields only with {@code qaldy.scheduler.allow-seconds}), zone or
     *                      job name, or a job the live version does not register (the message lists those it does)
     * @throws Conflict     when the app has {@value #MAX_PER_APP} schedules already
     */
    public Added add(Session me, String appName, String cron, String zone, String job) {
        CronRule rule = CronRule.of(cron, zone, allowSeconds);
        JobName.check(job);
        App app = guard.ownedForUpdate(me, appName);
        String note = liveJobs.check(app, job);
        long count = em.createNamedQuery(Schedule.COUNT_OF_APP, Long.class).setParameter("app", app).getSingleResult();
        if (count >= MAX_PER_APP) {
            throw new Conflict(appName + " has " + MAX_PER_APP + " schedules, the most an app may have; delete one first");
        }
        Schedule schedule = new Schedule(app, rule, job, me.email(), clock.instant());
        em.persist(schedule);
        em.flush();
        audit.fire(new Audited(me.email(), Schedule.AUDIT_CREATE, app.id(), app.name(),
                "schedule " + schedule.id() + ": \"" + rule.expression() + "\" in " + rule.zone().getId() + " runs job " + job));
        return new Added(schedule, note);
    }

    /**
     * Deletes a schedule (owner only); its past runs stay in the app's run list.
     *
     * @throws NotFound when the app has no such schedule
     */
    public void delete(Session me, String appName, long id) {
        App app = guard.ownedForUpdate(me, appName);
        Schedule schedule = em.find(Schedule.class, id);
        if (schedule == null || !schedule.app().id().equals(app.id())) {
            throw new NotFound(appName + " has no schedule " + id);
        }
        em.remove(schedule);
        audit.fire(new Audited(me.email(), Schedule.AUDIT_DELETE, app.id(), app.name(),
                "schedule " + id + ": \"" + schedule.cron() + "\" in " + schedule.zone() + " ran job " + schedule.job()));
    }

    /**
     * A page of the app's runs, newest first (owner only).
     *
     * @param before only runs with an id below this (the previous page's last id), or null
     */
    public List<Run> runs(Session me, String appName, int limit, Long before) {
        if (limit < 1 || limit > MAX_RUNS_PAGE) {
            throw new InvalidInput("limit must be between 1 and " + MAX_RUNS_PAGE);
        }
        App app = guard.owned(me, appName);
        TypedQuery<Run> query = before == null
                ? em.createNamedQuery(Run.OF_APP, Run.class)
                : em.createNamedQuery(Run.OF_APP_BEFORE, Run.class).setParameter("before", before);
        return query.setParameter("appId", app.id()).setMaxResults(limit).getResultList();
    }
}
