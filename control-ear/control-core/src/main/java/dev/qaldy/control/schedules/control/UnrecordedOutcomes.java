package dev.qaldy.control.schedules.control;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Outcomes of runs this control plane sent whose recording failed: the database went away between
 * the send and the record (issue 14: a webhook's job ran, the database was killed as the runtime
 * host answered, and the run stayed "running" until it was failed as stale, its log lost). Each is
 * kept in memory, at most {@value #MAX}, and recorded at the scheduler's next tick that finds the
 * database answering, before stale runs are failed ({@link RunDispatcher#dispatchPending}). The
 * release of a claim whose commit had no answer is kept the same way ({@link RunQueue#release}). An
 * outcome not kept (the bound reached, or this process stopped meanwhile) is failed as stale by
 * {@link RunQueue#failStale}, as before: never sent again, since the handler ran.
 */
@ApplicationScoped
public class UnrecordedOutcomes {

    /** Most outcomes kept; past it a run is left to be failed as stale. */
    static final int MAX = 10_000;

    private final Map<Long, Consumer<RunQueue>> pending = new ConcurrentHashMap<>();

    /**
     * Keeps {@code record} (what writes run {@code runId}'s outcome) for a later try.
     *
     * @return false when the bound is reached and it was not kept
     */
    public boolean keep(long runId, Consumer<RunQueue> record) {
        if (pending.size() >= MAX && !pending.containsKey(runId)) {
            return false;
        }
        pending.put(runId, record);
        return true;
    }

    /**
     * Records every kept outcome through {@code queue}, dropping each that was written; stops at the
     * first failure (the database is still away), leaving the rest for the next try.
     *
     * @return how many were recorded
     */
    public int recordAll(RunQueue queue) {
        int recorded = 0;
        for (Map.Entry<Long, Consumer<RunQueue>> outcome : pending.entrySet()) {
            try {
                outcome.getValue().accept(queue);
            } catch (RuntimeException stillAway) {
                return recorded;
            }
            pending.remove(outcome.getKey(), outcome.getValue());
            recorded++;
        }
        return recorded;
    }

    /** How many outcomes wait to be recorded. */
    public int size() {
        return pending.size();
    }
}
