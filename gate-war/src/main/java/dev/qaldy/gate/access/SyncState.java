package dev.qaldy.gate.access;

import dev.qaldy.contract.health.ControlPlaneWitness;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Whether this gate was in touch with the control plane's sharing changes, which decides if its
 * remembered access answers may be trusted (issue 3: a revoked person is never let in from a copy,
 * even when the gate missed the push and the API died right after). Times are monotonic ns.
 * <ul>
 * <li><b>Last sync</b>: when the last completed pull of the feed was sent; a push does not count.
 * <li><b>Outage start</b>: the first control-plane failure since the last answer.
 * <li><b>Stall</b>: the watchdog ticked with a gap of at least {@code maxGap} (SIGSTOP, a long GC);
 * out of touch until a pull sent after it completes.
 * <li><b>Cut off alone</b>: during the outage the runtime host said the control plane answered it
 * after this gate lost it ({@link ControlPlaneWitness}): a partition, not the cell's outage; until
 * the control plane answers this gate again.
 * </ul>
 * Copies are used without asking only while in touch now; during a failure only when the last sync
 * was within {@code maxGap} of the outage start, with no stall and not cut off alone; otherwise 503.
 * The control plane waits the same bound for a gate its push missed ({@code qaldy.control.gate-sync-max-gap}).
 */
public final class SyncState {

    private static final long NEVER = Long.MIN_VALUE;

    private final LongSupplier nanos;
    private final long maxGapNanos;

    private long lastSync = NEVER;
    private long outageStart = NEVER;
    private long lastTick;
    private long stalledAt = NEVER;
    private boolean cutOffAlone;
    private boolean lostTouchLogged;
    private boolean syncWanted;
    private volatile Runnable wake = () -> { };

    /** @param maxGap {@code qaldy.gate.sync-max-gap} (default 10 s) */
    public SyncState(LongSupplier nanos, Duration maxGap) {
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        if (maxGap == null || maxGap.isNegative() || maxGap.isZero()) {
            throw new IllegalArgumentException("qaldy.gate.sync-max-gap must be positive: " + maxGap);
        }
        this.maxGapNanos = maxGap.toNanos();
        this.lastTick = nanos.getAsLong();
    }

    public long now() {
        return nanos.getAsLong();
    }

    /** A pull sent at {@code sentAtNanos} completed and was applied; the outage, if any, is over. */
    public synchronized void pulled(long sentAtNanos) {
        if (lastSync == NEVER || sentAtNanos - lastSync > 0) {
            lastSync = sentAtNanos;
        }
        outageStart = NEVER;
        cutOffAlone = false;
        if (stalledAt != NEVER && sentAtNanos - stalledAt >= 0) {
            stalledAt = NEVER;
        }
        lostTouchLogged = false;
    }

    /** After a failure, asks the sync thread to pull at once, so the gate is in touch again within moments. */
    public void answered() {
        boolean wasFailing;
        synchronized (this) {
            wasFailing = outageStart != NEVER;
            outageStart = NEVER;
            cutOffAlone = false;
            lostTouchLogged = false;
            syncWanted |= wasFailing;
        }
        if (wasFailing) {
            wake.run();
        }
    }

    /** Asks the sync thread to pull at once (the control plane's view turned up). */
    public void syncNow() {
        synchronized (this) {
            syncWanted = true;
        }
        wake.run();
    }

    public void onSyncWanted(Runnable wake) {
        this.wake = Objects.requireNonNull(wake, "wake");
    }

    /** True once after a wanted pull was asked for. */
    public synchronized boolean takeSyncWanted() {
        boolean wanted = syncWanted;
        syncWanted = false;
        return wanted;
    }

    /** The first failure after an answer starts the outage. */
    public synchronized void failed() {
        if (outageStart == NEVER) {
            outageStart = now();
        }
    }

    /**
     * What the runtime host said when asked at {@code askedAtNanos} during this outage
     * ({@link ControlPlaneWitness#cutOffAlone}, ms).
     *
     * @return true when this made the gate cut off alone (it was not before)
     */
    public synchronized boolean witnessed(long askedAtNanos, long witnessAnsweredMsAgo, long ownAnsweredMsAgo) {
        if (outageStart == NEVER || cutOffAlone) {
            return false;
        }
        long outageAgeMs = (askedAtNanos - outageStart) / 1_000_000;
        if (!ControlPlaneWitness.cutOffAlone(outageAgeMs, witnessAnsweredMsAgo, ownAnsweredMsAgo)) {
            return false;
        }
        cutOffAlone = true;
        lostTouchLogged = false;
        return true;
    }

    /** Ms from this outage's first failure to {@code atNanos}; -1 when no outage is on. */
    public synchronized long outageAgeMs(long atNanos) {
        return outageStart == NEVER ? -1 : Math.max(0, (atNanos - outageStart) / 1_000_000);
    }

    /** @return true when the gap since the previous tick was at least the max gap: a stall */
    public synchronized boolean tick() {
        long now = now();
        boolean stalled = now - lastTick >= maxGapNanos;
        if (stalled) {
            stalledAt = now;
        }
        lastTick = now;
        return stalled;
    }

    public synchronized boolean inTouchNow() {
        long now = now();
        return !stalled(now) && lastSync != NEVER && now - lastSync < maxGapNanos;
    }

    /** Remembered answers may stand in: synced within the max gap before the outage began, no stall since. */
    public synchronized boolean trustsCopies() {
        long now = now();
        long until = outageStart == NEVER ? now : outageStart;
        return !stalled(now) && !cutOffAlone && lastSync != NEVER && until - lastSync < maxGapNanos;
    }

    /** True once per untrusted outage or stall, for one log line. */
    public synchronized boolean firstDistrust() {
        if (lostTouchLogged) {
            return false;
        }
        lostTouchLogged = true;
        return true;
    }

    /** Why copies are not trusted, for the log; meaningful only while {@link #trustsCopies()} is false. */
    public synchronized String why() {
        long now = now();
        if (stalled(now)) {
            return "this gate's own process stalled for at least " + Duration.ofNanos(maxGapNanos)
                    + " (paused or a long GC) and has not synced since";
        }
        if (cutOffAlone) {
            return "the runtime host still reaches the control plane, which answered it after this gate lost it: this gate"
                    + " alone is cut off (a network partition) and trusts none of its copies";
        }
        if (lastSync == NEVER) {
            return "this gate has not synced with the control plane since it started";
        }
        long until = outageStart == NEVER ? now : outageStart;
        return "this gate lost touch with the control plane before the outage (last sync "
                + Duration.ofNanos(until - lastSync).toMillis() + " ms before it, more than " + Duration.ofNanos(maxGapNanos)
                + "); copies are not trusted";
    }

    private boolean stalled(long now) {
        return stalledAt != NEVER || now - lastTick >= maxGapNanos;
    }
}
