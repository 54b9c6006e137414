package dev.qaldy.control.builds.control;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.BuildStatus;
import dev.qaldy.control.builds.entity.BundleBytes;
import dev.qaldy.control.builds.entity.LiveClock;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Records a build's progress, one short transaction per step (the builder runs outside any request). */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class BuildRecorder {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    SequenceRows sequences;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    /**
     * Marks the build as running.
     *
     * @return false when the build is gone (its app was deleted meanwhile) or no longer queued
     */
    public boolean start(long buildId) {
        Build build = em.find(Build.class, buildId);
        if (build == null || build.status() != BuildStatus.QUEUED) {
            return false;
        }
        build.start();
        return true;
    }

    /**
     * Stores the bundle bytes with its SHA-256, seal and the jobs its server.js registers, and marks the
     * build succeeded. When the app has nothing live yet, the build goes live (issue 20, "first deploy":
     * as on Heroku or Render, the first build serves at once; later ones wait for Promote, unless the
     * owner chose that every build goes live), audited as a promote by the uploader, and its log says so.
     *
     * @return true when the build went live by itself
     */
    public boolean succeed(long buildId, byte[] bundle, String sha256, String seal, JobExports jobs, List<String> log) {
        Build build = em.find(Build.class, buildId);
        if (build == null) {
            return false;
        }
        em.persist(new BundleBytes(buildId, bundle));
        App app = build.app();
        em.refresh(app, LockModeType.PESSIMISTIC_WRITE); // a promote or another first build waits for this one
        boolean first = app.liveVersion() == null;
        // A build older than the live one never replaces it (two uploads built out of order).
        boolean every = !first && app.promotesEveryBuild() && build.version() > app.liveVersion();
        List<String> lines = new ArrayList<>(log);
        if (first) {
            lines.add("live: version " + build.version() + " is the app's first build, so it went live by itself;"
                    + " later builds wait for Promote");
        } else if (every) {
            lines.add("live: version " + build.version() + " went live by itself, as the app's settings say for every build");
        }
        build.succeed(sha256, seal, jobs.stored(), lines, clock.instant());
        if (first || every) {
            app.promote(build.version(), sequences.next(LiveClock.class)); // the live clock, as every promote (issue 16)
            audit.fire(new Audited(build.createdBy(), Audited.PROMOTE, app.id(), app.name(), "version " + build.version()
                    + (first ? " (first build, live by itself)" : " (every build goes live by itself)")));
        }
        return first || every;
    }

    /** Marks the build failed with its log; a build that is gone or already final stays as it is. */
    public void fail(long buildId, List<String> log) {
        Build build = em.find(Build.class, buildId);
        if (build != null && !build.status().isFinal()) {
            build.fail(log, clock.instant());
        }
    }

    /**
     * Fails every build still queued or running that was uploaded before {@code startedAt} (this
     * control plane's start): no builder of this process can be working on them any more, and a
     * build uploaded since is this process's own. Called at start-up, and again later if the
     * database was down then (so a control plane started during a database outage still fails them).
     *
     * @param startedAt when this control plane started (wall clock of the injected Clock)
     * @return how many builds were failed
     * @throws jakarta.persistence.PersistenceException when the database cannot be reached
     */
    public int failInterrupted(Instant startedAt) {
        List<Build> unfinished = em.createNamedQuery(Build.UNFINISHED, Build.class)
                .setParameter("statuses", List.of(BuildStatus.QUEUED, BuildStatus.RUNNING))
                .setParameter("before", startedAt.toEpochMilli()).getResultList();
        for (Build build : unfinished) {
            build.fail(List.of("the control plane restarted before this build finished; upload the archive again"),
                    clock.instant());
        }
        return unfinished.size();
    }

    /** This control plane's clock's now: the start-up mark for {@link #failInterrupted(Instant)}. */
    public Instant now() {
        return clock.instant();
    }
}
