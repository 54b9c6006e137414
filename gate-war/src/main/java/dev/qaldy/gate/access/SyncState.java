package dev.qaldy.gate.access;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Whether this gate was in touch with the control plane's sharing changes, the rule that decides
 * if its remembered access answers may be trusted (issue 3: a revoked person is never let in from
 * a copy, even when the gate missed the revocation's push and the API died right after it).
 *
 * <p>All times are {@link System#nanoTime()} values (monotonic; injected for tests), never wall time.
 * <ul>
 * <li><b>Last sync</b>: when the last completed pull of the sharing-changes feed was sent (all its
 * changes applied). Every change committed before that moment is known to the gate. A push does
 * not count: it says nothing of the other changes committed meanwhile.
 * <li><b>Outage start</b>: the first control-plane failure (a pull, or an access question) after
 * the last sync or the API's last answer, kept until the control plane answers again.
 * <li><b>Stall</b>: the gate's own watchdog ticked with a gap of at least {@code maxGap} (SIGSTOP,
 * a long GC pause); it counts as out of touch until a pull sent after the stall was seen completes.
 * </ul>
 * Fresh copies are used without asking only while the gate is in touch now (last sync younger than
 * {@code maxGap}, no stall). During a control-plane failure copies are trusted only when the gate
 * was in touch right up to the outage: outage start minus last sync under {@code maxGap}, no stall.
 * Otherwise everyone not answered by the API gets 503. The control plane waits up to the same bound
 * for a gate its push missed ({@code qaldy.control.gate-sync-max-gap}), so a gate that missed a
 * change and was not told within it fails this rule.
 */
public final class SyncState {

    private static final long NEVER = Long.MIN_VALUE;

    private final LongSupplier nanos;
    private final long maxGapNanos;

    private long lastSync = NEVER;
    private long outageStart = NEVER;
    private long lastTick;
    private long stalledAt = NEVER;
    private boolean lostTouchLogged;
    private boolean syncWanted;
    private volatile Runnable wake = () -> { };

    /**
     * @param nanos  the monotonic clock, ns ({@code System::nanoTime} in the gate)
     * @param maxGap {@code qaldy.gate.sync-max-gap}: longest time without a sync the gate still counts as in touch (default 10 s)
     */
    public SyncState(LongSupplier nanos, Duration maxGap) {
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        if (maxGap == null || maxGap.isNegative() || maxGap.isZero()) {
            throw new IllegalArgumentException("qaldy.gate.sync-max-gap must be positive: " + maxGap);
        }
        this.maxGapNanos = maxGap.toNanos();
        this.lastTick = nanos.getAsLong();
    }

    /** The monotonic clock now, ns. */
    public long now() {
        return nanos.getAsLong();
    }

    /**
     * A pull sent at {@code sentAtNanos} completed and its changes are applied: the gate knows every
     * change committed before then, and the control plane answered (the outage, if any, is over).
     */
    public synchronized void pulled(long sentAtNanos) {
        if (lastSync == NEVER || sentAtNanos - lastSync > 0) {
            lastSync = sentAtNanos;
        }
        outageStart = NEVER;
        if (stalledAt != NEVER && sentAtNanos - stalledAt >= 0) {
            stalledAt = NEVER;
        }
        lostTouchLogged = false;
    }

    /**
     * The control plane answered an access question: an outage, if any, is over (the last sync is
     * unchanged). After a failure this asks the sync thread to pull at once ({@link #onSyncWanted}),
     * so a gate is in touch again within moments of the API's return, not an interval later.
     */
    public void answered() {
        boolean wasFailing;
        synchronized (this) {
            wasFailing = outageStart != NEVER;
            outageStart = NEVER;
            lostTouchLogged = false;
            syncWanted |= wasFailing;
        }
        if (wasFailing) {
            wake.run();
        }
    }

    /**
     * Asks the sync thread to pull at once, whatever the outage's state (the gate's view of the
     * control plane turned up: its background probe found the API back, and nobody asked yet).
     */
    public void syncNow() {
        synchronized (this) {
            syncWanted = true;
        }
        wake.run();
    }

    /** Runs {@code wake} (the sync thread's unpark) whenever a pull is wanted at once. */
    public void onSyncWanted(Runnable wake) {
        this.wake = Objects.requireNonNull(wake, "wake");
    }

    /** True once after the API answered following a failure: the sync thread pulls now. */
    public synchronized boolean takeSyncWanted() {
        boolean wanted = syncWanted;
        syncWanted = false;
        return wanted;
    }

    /** A control-plane failure (pull or access question); the first one after an answer starts the outage. */
    public synchronized void failed() {
        if (outageStart == NEVER) {
            outageStart = now();
        }
    }

    /**
     * The watchdog's tick: a gap of at least the max gap since the previous tick means this process
     * stalled; it then counts as out of touch until a pull sent from now on completes.
     *
     * @return true when this tick found a stall
     */
    public synchronized boolean tick() {
        long now = now();
        boolean stalled = now - lastTick >= maxGapNanos;
        if (stalled) {
            stalledAt = now;
        }
        lastTick = now;
        return stalled;
    }

    /** True when fresh copies may be used without asking: synced within the max gap, no stall. */
    public synchronized boolean inTouchNow() {
        long now = now();
        return !stalled(now) && lastSync != NEVER && now - lastSync < maxGapNanos;
    }

    /**
     * True when remembered answers may stand in for a failing control plane: the gate synced
     * within the max gap before the outage began, and did not stall since.
     */
    public synchronized boolean trustsCopies() {
        long now = now();
        long until = outageStart == NEVER ? now : outageStart;
        return !stalled(now) && lastSync != NEVER && until - lastSync < maxGapNanos;
    }

    /**
     * True once per outage (or stall) that is not trusted: the caller logs why copies are not used.
     */
    public synchronized boolean firstDistrust() {
        if (lostTouchLogged) {
            return false;
        }
        lostTouchLogged = true;
        return true;
    }

    /** Why copies are not trusted now, for the log; empty reasons when they are. */
    public synchronized String why() {
        long now = now();
        if (stalled(now)) {
            return "this gate's own process stalled for at least " + Duration.ofNanos(maxGapNanos)
                    + " (paused or a long GC) and has not synced since";
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
