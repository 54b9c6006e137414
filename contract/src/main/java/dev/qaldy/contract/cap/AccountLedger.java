package dev.qaldy.contract.cap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One account as the edge holds it: the last cap state taken, and the usage (requests, CPU ms)
 * counted here that the state does not include yet, in three stages: open (counted, not reported), pending (reported in
 * one batch, not acknowledged) and acknowledged chunks (billed at a sequence the held state does
 * not reach yet; a state at that sequence or above includes them). Guarded by itself: every
 * method but {@link #sequence} expects the caller to hold this ledger's monitor.
 */
final class AccountLedger {

    /** Most apps counted per stage; usage of further apps goes to the stage's first app. */
    static final int MAX_APPS = 1000;
    /** Acknowledged chunks kept; past it the two oldest merge (counted a little longer, never less). */
    static final int MAX_ACKED_CHUNKS = 64;

    /** Usage billed by the control plane, counted until a state at {@code sequence} or above is held. */
    record AckedChunk(long sequence, Usage usage) {

        /** This and the next chunk as one, included from the later of their sequences. */
        AckedChunk merge(AckedChunk next) {
            return new AckedChunk(Math.max(sequence, next.sequence), usage.plus(next.usage));
        }
    }

    /**
     * A mutable sum of usage (requests, CPU ms), saturating: {@link AccountLedger#count} adds to it on
     * every request of the account's apps (the gate's hot path), where a {@link Usage} record would
     * allocate once per request.
     */
    static final class Counter {

        private long requests;
        private long cpuMs;

        void add(long requests, long cpuMs) {
            this.requests = Prices.saturatedAdd(this.requests, requests);
            this.cpuMs = Prices.saturatedAdd(this.cpuMs, cpuMs);
        }

        void add(Usage usage) {
            add(usage.requests(), usage.cpuMs());
        }

        Usage usage() {
            return new Usage(requests, cpuMs);
        }
    }

    final long id;
    /** Orders the writes of this account's file (taken before this ledger's monitor, never inside it). */
    final Object writing = new Object();
    private String jws;
    private CapState state;
    private final Map<String, Counter> open = new LinkedHashMap<>();
    private UUID pendingBatch;
    private final Map<String, Usage> pending = new LinkedHashMap<>();
    private final List<AckedChunk> acked = new ArrayList<>();
    /** The last verdict, to log changes only; null before the first. */
    private Boolean asleep;
    /** Changes made, and the change last on disk. */
    private long version;
    private long written;
    /**
     * {@link #unbilled}'s sum, kept up to date by {@link #count} and worked out again after any other
     * change: a verdict per request reads it under this ledger's monitor, which every request of the
     * account's apps takes (issue 15: summing the stages there made requests wait).
     */
    private final Counter total = new Counter();
    private boolean totalKnown;

    AccountLedger(long id) {
        this.id = id;
    }

    /** The held state's sequence, 0 when none; takes the monitor itself. */
    long sequence() {
        synchronized (this) {
            return state == null ? 0 : state.sequence();
        }
    }

    CapState state() {
        return state;
    }

    /** The held state as it was signed, or null. */
    String jws() {
        return jws;
    }

    /** The batch the pending usage was reported in, or null when none is out. */
    UUID pendingBatch() {
        return pendingBatch;
    }

    /** Holds {@code state} (signed as {@code jws}); acknowledged usage it includes stops counting. */
    void take(String jws, CapState state) {
        this.jws = jws;
        this.state = state;
        dropBilled();
        version++;
    }

    /** Records a verdict; true when it differs from the last one. */
    boolean turned(boolean asleep) {
        boolean changed = this.asleep == null || this.asleep != asleep;
        this.asleep = asleep;
        return changed;
    }

    /** Counts {@code requests} and {@code cpuMs} (both ≥ 0) of {@code app} as open usage. */
    void count(String app, long requests, long cpuMs) {
        open.computeIfAbsent(bucket(open, app), a -> new Counter()).add(requests, cpuMs);
        total.add(requests, cpuMs);
        version++;
    }

    /** Moves the open usage into batch {@code batchId}; false when there was none (or a batch is still out). */
    boolean seal(UUID batchId) {
        if (open.isEmpty() || pendingBatch != null) {
            return false;
        }
        pendingBatch = batchId;
        open.forEach((app, counter) -> pending.put(app, counter.usage()));
        open.clear();
        totalKnown = false;
        version++;
        return true;
    }

    /** The pending usage by app, read-only. */
    Map<String, Usage> pending() {
        return Collections.unmodifiableMap(pending);
    }

    /**
     * The control plane billed batch {@code batchId}, included from state {@code sequence} on; a
     * null sequence means it did not bill this account, and the usage is dropped.
     */
    void acknowledge(UUID batchId, Long sequence) {
        if (!batchId.equals(pendingBatch)) {
            return;
        }
        if (sequence != null) {
            Counter sum = new Counter();
            pending.values().forEach(sum::add);
            acked.add(new AckedChunk(sequence, sum.usage()));
            if (acked.size() > MAX_ACKED_CHUNKS) {
                AckedChunk first = acked.remove(0);
                acked.set(0, first.merge(acked.get(0)));
            }
        }
        pending.clear();
        pendingBatch = null;
        dropBilled();
        version++;
    }

    /** Usage counted here and not in the held state: open, pending and acknowledged. */
    Usage unbilled() {
        return sumKnown().usage();
    }

    /** {@link #unbilled} at the held state's prices, in millicents; 0 without a state. Allocates nothing. */
    long unbilledMillicents() {
        if (state == null) {
            return 0;
        }
        Counter sum = sumKnown();
        return state.prices().cost(sum.requests, sum.cpuMs);
    }

    private Counter sumKnown() {
        if (!totalKnown) {
            total.requests = 0;
            total.cpuMs = 0;
            open.values().forEach(counter -> total.add(counter.requests, counter.cpuMs));
            pending.values().forEach(total::add);
            acked.forEach(chunk -> total.add(chunk.usage()));
            totalKnown = true;
        }
        return total;
    }

    /** Acknowledged usage the held state includes is not counted twice. */
    private void dropBilled() {
        totalKnown = false;
        if (state != null) {
            acked.removeIf(chunk -> chunk.sequence() <= state.sequence());
        }
    }

    private static String bucket(Map<String, ?> stage, String app) {
        return stage.size() >= MAX_APPS && !stage.containsKey(app) ? stage.keySet().iterator().next() : app;
    }

    // ---- for its file ------------------------------------------------------------------------

    /** The open usage by app, a copy. */
    Map<String, Usage> open() {
        Map<String, Usage> copy = new LinkedHashMap<>();
        open.forEach((app, counter) -> copy.put(app, counter.usage()));
        return copy;
    }

    /** The acknowledged chunks, oldest first, read-only. */
    List<AckedChunk> acked() {
        return Collections.unmodifiableList(acked);
    }

    /** Adds usage read from the account's file to pending batch {@code batchId}. */
    void restorePending(UUID batchId, String app, Usage usage) {
        pendingBatch = batchId;
        pending.merge(bucket(pending, app), usage, Usage::plus);
        totalKnown = false;
    }

    /** Adds a chunk read from the account's file (kept only while the held state does not include it). */
    void restoreAcked(AckedChunk chunk) {
        acked.add(chunk);
        dropBilled();
    }

    /** Whether a change is not on disk yet. */
    boolean dirty() {
        return version != written;
    }

    /** The version a write now would put on disk. */
    long version() {
        return version;
    }

    /** Version {@code version} is on disk (the file just read is, too). */
    void wrote(long version) {
        written = Math.max(written, version);
    }
}
