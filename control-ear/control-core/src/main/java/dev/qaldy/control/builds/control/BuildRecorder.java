package dev.qaldy.control.builds.control;

import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.BuildStatus;
import dev.qaldy.control.builds.entity.BundleBytes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Records a build's progress, one short transaction per step (the builder runs outside any request). */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class BuildRecorder {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    Clock clock;

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

    /** Stores the bundle bytes with its SHA-256, seal and the jobs its server.js registers, and marks the build succeeded. */
    public void succeed(long buildId, byte[] bundle, String sha256, String seal, JobExports jobs, List<String> log) {
        Build build = em.find(Build.class, buildId);
        if (build == null) {
            return;
        }
        em.persist(new BundleBytes(buildId, bundle));
        build.succeed(sha256, seal, jobs.stored(), log, clock.instant());
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
