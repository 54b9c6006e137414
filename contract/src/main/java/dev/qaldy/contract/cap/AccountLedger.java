package dev.qaldy.contract.cap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One account at the edge: the last cap state taken and the usage it does not include yet, as open
 * (not reported), pending (in one batch, not acknowledged) and acknowledged chunks (billed at a
 * sequence the held state does not reach yet). Every method but {@link #sequence} expects the
 * caller to hold this ledger's monitor.
 */
final class AccountLedger {

    /** Most apps per stage; further apps count to the stage's first app. */
    static final int MAX_APPS = 1000;
    /** Past it the two oldest merge (counted a little longer, never less). */
    static final int MAX_ACKED_CHUNKS = 64;

    record AckedChunk(long sequence, Usage usage) {

        AckedChunk merge(AckedChunk next) {
            return new AckedChunk(Math.max(sequence, next.sequence), usage.plus(next.usage));
        }
    }

    /** A saturating mutable sum: {@link AccountLedger#count} runs per request, where a {@link Usage} would allocate. */
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
    /** Orders the writes of this account's file; taken before this ledger's monitor, never inside it. */
    final Object writing = new Object();
    private String jws;
    private CapState state;
    private final Map<String, Counter> open = new LinkedHashMap<>();
    private UUID pendingBatch;
    private final Map<String, Usage> pending = new LinkedHashMap<>();
    private final List<AckedChunk> acked = new ArrayList<>();
    private Boolean asleep;
    private long version;
    private long written;
    /** {@link #unbilled}'s sum, kept by {@link #count} (issue 15: summing the stages per request made requests wait). */
    private final Counter total = new Counter();
    private boolean totalKnown;

    AccountLedger(long id) {
        this.id = id;
    }

    /** 0 when no state is held; takes the monitor itself. */
    long sequence() {
        synchronized (this) {
            return state == null ? 0 : state.sequence();
        }
    }

    CapState state() {
        return state;
    }

    String jws() {
        return jws;
    }

    UUID pendingBatch() {
        return pendingBatch;
    }

    void take(String jws, CapState state) {
        this.jws = jws;
        this.state = state;
        dropBilled();
        version++;
    }

    /** True when {@code asleep} differs from the last verdict. */
    boolean turned(boolean asleep) {
        boolean changed = this.asleep == null || this.asleep != asleep;
        this.asleep = asleep;
        return changed;
    }

    void count(String app, long requests, long cpuMs) {
        open.computeIfAbsent(bucket(open, app), a -> new Counter()).add(requests, cpuMs);
        total.add(requests, cpuMs);
        version++;
    }

    /** False when there is no open usage or a batch is still out. */
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

    Map<String, Usage> pending() {
        return Collections.unmodifiableMap(pending);
    }

    /** A null {@code sequence} means the control plane did not bill this account: the usage is dropped. */
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

    /** Usage counted here and not in the held state. */
    Usage unbilled() {
        return sumKnown().usage();
    }

    /** In millicents at the held state's prices; 0 without a state. Allocates nothing. */
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

    private void dropBilled() {
        totalKnown = false;
        if (state != null) {
            acked.removeIf(chunk -> chunk.sequence() <= state.sequence());
        }
    }

    private static String bucket(Map<String, ?> stage, String app) {
        return stage.size() >= MAX_APPS && !stage.containsKey(app) ? stage.keySet().iterator().next() : app;
    }

    Map<String, Usage> open() {
        Map<String, Usage> copy = new LinkedHashMap<>();
        open.forEach((app, counter) -> copy.put(app, counter.usage()));
        return copy;
    }

    List<AckedChunk> acked() {
        return Collections.unmodifiableList(acked);
    }

    void restorePending(UUID batchId, String app, Usage usage) {
        pendingBatch = batchId;
        pending.merge(bucket(pending, app), usage, Usage::plus);
        totalKnown = false;
    }

    void restoreAcked(AckedChunk chunk) {
        acked.add(chunk);
        dropBilled();
    }

    boolean dirty() {
        return version != written;
    }

    long version() {
        return version;
    }

    void wrote(long version) {
        written = Math.max(written, version);
    }
}
