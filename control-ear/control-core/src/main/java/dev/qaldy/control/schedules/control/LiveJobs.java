package dev.qaldy.control.schedules.control;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.builds.control.JobExports;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.platform.control.InvalidInput;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Whether an app's live version has a job handler: the check when an owner names a job in a new
 * schedule or hook. The jobs of a version are what the builder read from its server.js
 * ({@link JobExports}); the control plane never runs app code.
 */
@ApplicationScoped
public class LiveJobs {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /**
     * Checks {@code job} against the live version, in the caller's transaction.
     *
     * @return null when the live version registers the job; a note for the owner when it could not be
     *         checked (no live version yet, or a version whose jobs the builder could not read): then the
     *         schedule or hook is accepted and a run fails with the runtime host's reason if the job is missing
     * @throws InvalidInput (400) when the live version's server.js does not register {@code job}, listing the jobs it does
     */
    public String check(App app, String job) {
        if (app.liveVersion() == null) {
            return app.name() + " has no live version yet, so job \"" + job + "\" could not be checked; its runs fail"
                    + " until a version whose server.js registers app.job('" + job + "', …) is live";
        }
        Build live = em.createNamedQuery(Build.BY_VERSION, Build.class).setParameter("app", app)
                .setParameter("version", app.liveVersion()).getResultStream().findFirst().orElse(null);
        JobExports jobs = JobExports.fromStored(live == null ? null : live.jobs());
        return decide(app.name(), app.liveVersion(), jobs, job);
    }

    /** The rule alone: see {@link #check}. */
    static String decide(String app, long liveVersion, JobExports jobs, String job) {
        if (!jobs.complete()) {
            return "the jobs of " + app + "'s live version " + liveVersion + " are not known (" + jobs.note()
                    + "), so job \"" + job + "\" was not checked";
        }
        if (jobs.names().contains(job)) {
            return null;
        }
        throw new InvalidInput("the live version " + liveVersion + " of " + app + " has no job handler named \"" + job
                + "\"; its server.js registers " + (jobs.names().isEmpty() ? "no jobs" : "these jobs: " + jobs.describe())
                + " (app.job('name', function (ctx) { … }))");
    }
}
