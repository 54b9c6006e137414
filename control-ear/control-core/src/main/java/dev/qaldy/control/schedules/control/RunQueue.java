package dev.qaldy.control.schedules.control;

import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The run queue's state changes, one short transaction each. A run is claimed with a guarded
 * UPDATE ({@code … WHERE state IN ('QUEUED','WAITING_FOR_CAP')}): of two dispatchers, in one
 * process or two, exactly one changes the row, and only that one sends the run.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class RunQueue {

    /** What the dispatcher needs to send one claimed run. */
    public record Claimed(long runId, String app, String job, Instant tick, String actor, String payload) {
    }

    static final List<RunState> DISPATCHABLE = List.of(RunState.QUEUED, RunState.WAITING_FOR_CAP);

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    Clock clock;

    /** The ids of queued and waiting runs, oldest first, at most {@code max}. */
    public List<Long> dispatchable(int max) {
        return em.createNamedQuery(Run.DISPATCHABLE, Long.class).setParameter("states", DISPATCHABLE)
                .setMaxResults(max).getResultList();
    }

    /** The ids of queued runs (not those waiting for the cap), oldest first, at most {@code max}. */
    public List<Long> queued(int max) {
        return em.createNamedQuery(Run.DISPATCHABLE, Long.class).setParameter("states", List.of(RunState.QUEUED))
                .setMaxResults(max).getResultList();
    }

    /** The app of a run that is still queued or waiting, or empty when it is gone or taken. */
    public Optional<String> pendingApp(long runId) {
        Run run = em.find(Run.class, runId);
        return run != null && DISPATCHABLE.contains(run.state()) ? Optional.of(run.appName()) : Optional.empty();
    }

    /** Parks a queued run until the cap lets its app run (a waiting run stays waiting). */
    public void waitForCap(long runId) {
        em.createNamedQuery(Run.WAIT_FOR_CAP).setParameter("waiting", RunState.WAITING_FOR_CAP)
                .setParameter("queued", RunState.QUEUED).setParameter("id", runId).executeUpdate();
    }

    /**
     * Claims a queued or waiting run for this dispatcher: running from now, marked with {@code token}
     * (a random number the caller keeps, so it alone can {@link #release} this claim); empty when
     * another took it. When it throws, the claim may still have been written (the database committed
     * and went away before it answered).
     */
    public Optional<Claimed> claim(long runId, long token) {
        int changed = em.createNamedQuery(Run.CLAIM).setParameter("running", RunState.RUNNING)
                .setParameter("now", clock.millis()).setParameter("token", token).setParameter("id", runId)
                .setParameter("from", DISPATCHABLE).executeUpdate();
        if (changed != 1) {
            return Optional.empty();
        }
        Run run = em.find(Run.class, runId);
        return Optional.of(new Claimed(runId, run.appName(), run.job(), run.tick(), run.actor(), run.payload()));
    }

    /**
     * Puts a run claimed with {@code token} back in the queue, unsent: for a claim whose commit had no
     * answer (issue 14: the database was killed as it committed a webhook run's claim; the dispatcher
     * took the claim for failed, and the run stayed running, unsent, until it was failed as stale).
     * Nothing changes when that claim was never written or the run moved on.
     *
     * @return true when the run was queued again
     */
    public boolean release(long runId, long token) {
        return em.createNamedQuery(Run.RELEASE).setParameter("queued", RunState.QUEUED).setParameter("running", RunState.RUNNING)
                .setParameter("id", runId).setParameter("token", token).executeUpdate() == 1;
    }

    /** Records how a claimed run ended. */
    public void finish(long runId, boolean succeeded, List<String> log) {
        Run run = em.find(Run.class, runId);
        if (run != null && run.state() == RunState.RUNNING) {
            run.finish(succeeded, log, clock.instant());
        }
    }

    /**
     * A claimed run whose runtime host could not be reached (the handler never started): queued
     * again for a later tick, or failed once it has waited {@code maxAge} since it was queued.
     *
     * @return true when it is queued again
     */
    public boolean undelivered(long runId, String why, Duration maxAge) {
        Run run = em.find(Run.class, runId);
        return run != null && run.undelivered(why, clock.instant(), maxAge);
    }

    /**
     * Fails runs that have been running since before {@code startedBefore}: their control plane
     * stopped while sending them. They are not sent again, since the handler may have run.
     *
     * @return how many were failed
     */
    public int failStale(Instant startedBefore) {
        List<Run> stale = em.createNamedQuery(Run.STALE, Run.class).setParameter("running", RunState.RUNNING)
                .setParameter("before", startedBefore.toEpochMilli()).getResultList();
        for (Run run : stale) {
            run.finish(false, List.of("no outcome: the control plane that sent this run stopped before the runtime"
                    + " host answered; it is not sent again, since the handler may have run"), clock.instant());
        }
        return stale.size();
    }
}
