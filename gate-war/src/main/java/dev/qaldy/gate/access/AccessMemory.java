package dev.qaldy.gate.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the gate remembers of the control plane's access answers, per (app, person), in memory
 * only: a restarted gate remembers nothing (seed: it refuses what it never knew).
 *
 * <p>Rules, checked on every read against the injected clock (Caffeine's own expiry, driven by
 * the same clock, only frees the memory):
 * <ul>
 * <li>a copy is gone at its access-memory age, counted from when the API last gave that answer;
 * <li>per app the gate keeps the newest sharing version it has seen (from answers and from the
 * control plane's push); a copy carrying an older version is never returned;
 * <li>at most {@code maxEntries} copies, and at most {@code maxApps} apps' versions.
 * </ul>
 * The per-app versions are bounded too (issue 3): an app's entry lives at most the access memory
 * after its last answer or push, and at most {@code maxApps} are kept. Each copy points to the
 * entry it was learned under; once that entry is evicted (for size or age) the copy is never
 * trusted again, even when the app gets a new entry. An answer to a question asked at or before
 * the last eviction of any app's entry is never remembered: it could predate a push the gate
 * forgot, and remembering it would let an older copy count again.
 *
 * <p>Memory: every copy of one app shares the app's name String (held by its entry), so a copy
 * costs its key, its value and Caffeine's node (under 200 bytes; bench/ measures it).
 */
public final class AccessMemory {

    /** At most how often reads run Caffeine's maintenance (expiry), ms: an expired copy's memory is freed this late at most. */
    static final long MAINTENANCE_INTERVAL_MS = 1000;

    /** Default most apps whose newest sharing version is kept. */
    public static final long DEFAULT_MAX_APPS = 100_000;

    /** The key of one copy; {@code app} is the app's shared name instance when stored. */
    record Key(String app, long personId) {
        Key {
            Objects.requireNonNull(app, "app");
        }
    }

    /**
     * One app's entry: the name its copies share, the newest sharing version seen (only rises,
     * changed only inside the cache's atomic compute for the app), and whether it was evicted.
     */
    static final class AppVersion {
        final String name;
        volatile long version;
        volatile boolean evicted;

        AppVersion(String name, long version) {
            this.name = name;
            this.version = version;
        }
    }

    /** A copy as held: the answer, and the app entry it was learned under. */
    private static final class Held {
        final AccessAnswer.Kind decision;
        final long sharingVersion;
        final long answeredAtMs;
        final long accountId;
        final AppVersion app;

        Held(AccessAnswer answer, long answeredAtMs, AppVersion app) {
            this.decision = answer.kind();
            this.sharingVersion = answer.sharingVersion();
            this.answeredAtMs = answeredAtMs;
            this.accountId = answer.accountId();
            this.app = app;
        }

        AccessCopy copy() {
            return new AccessCopy(decision, sharingVersion, answeredAtMs, accountId);
        }
    }

    private final Clock clock;
    private final long memoryMillis;
    private final Cache<Key, Held> copies;
    private final Cache<String, AppVersion> apps;
    /** When an app's entry was last evicted (epoch ms), for size or age. */
    private final AtomicLong lastEvictionMs = new AtomicLong(Long.MIN_VALUE);
    /** When reads next run Caffeine's maintenance (epoch ms); see {@link #maintain}. */
    private final AtomicLong nextMaintenanceMs = new AtomicLong(0);

    /** With at most {@link #DEFAULT_MAX_APPS} apps' versions. */
    public AccessMemory(Clock clock, Duration memory, long maxEntries) {
        this(clock, memory, maxEntries, DEFAULT_MAX_APPS);
    }

    /**
     * @param clock      the gate's clock; copies age by it
     * @param memory     how long a copy lasts after the API gave it (seed: 30 minutes)
     * @param maxEntries most copies kept
     * @param maxApps    most apps whose newest sharing version is kept (an evicted app's copies go with it)
     */
    public AccessMemory(Clock clock, Duration memory, long maxEntries, long maxApps) {
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(memory, "memory");
        if (memory.isNegative() || memory.isZero()) {
            throw new IllegalArgumentException("the access memory must be positive: " + memory);
        }
        if (maxEntries < 0 || maxApps < 0) {
            throw new IllegalArgumentException("the access memory sizes must not be negative: " + maxEntries + ", " + maxApps);
        }
        this.memoryMillis = memory.toMillis();
        long memoryNanos = memory.toNanos();
        // Caffeine measures time in nanoseconds; ours come from the clock, so tests move both.
        Ticker ticker = () -> TimeUnit.MILLISECONDS.toNanos(clock.millis());
        this.copies = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .ticker(ticker)
                // Maintenance (eviction) on the calling thread: no pool of its own inside the server.
                .executor(Runnable::run)
                .expireAfter(new Expiry<Key, Held>() {
                    @Override
                    public long expireAfterCreate(Key key, Held copy, long nowNanos) {
                        return left(copy, nowNanos);
                    }

                    @Override
                    public long expireAfterUpdate(Key key, Held copy, long nowNanos, long currentLeft) {
                        return left(copy, nowNanos);
                    }

                    @Override
                    public long expireAfterRead(Key key, Held copy, long nowNanos, long currentLeft) {
                        return currentLeft; // reading never extends a copy's life
                    }

                    private long left(Held copy, long nowNanos) {
                        long age = nowNanos - TimeUnit.MILLISECONDS.toNanos(copy.answeredAtMs);
                        return Math.max(0, memoryNanos - Math.max(0, age));
                    }
                })
                .build();
        this.apps = Caffeine.newBuilder()
                .maximumSize(maxApps)
                .ticker(ticker)
                .executor(Runnable::run)
                // Every answer or push rewrites the entry, so it outlives every copy learned under it.
                .expireAfter(new Expiry<String, AppVersion>() {
                    @Override
                    public long expireAfterCreate(String app, AppVersion version, long nowNanos) {
                        return memoryNanos;
                    }

                    @Override
                    public long expireAfterUpdate(String app, AppVersion version, long nowNanos, long currentLeft) {
                        return memoryNanos;
                    }

                    @Override
                    public long expireAfterRead(String app, AppVersion version, long nowNanos, long currentLeft) {
                        return currentLeft;
                    }
                })
                // Synchronous, inside the removal: an answer learned meanwhile sees the mark. Only the
                // size bound loses knowledge: an entry that expired had no answer or push for the whole
                // access memory, so no copy of that app is alive and no push is missed; an answer that
                // finds it expired (the first ask after a quiet half hour) is remembered as usual.
                .evictionListener((String app, AppVersion version, RemovalCause cause) -> {
                    if (cause != RemovalCause.EXPIRED) {
                        lastEvictionMs.accumulateAndGet(clock.millis(), Math::max);
                    }
                    if (version != null) {
                        version.evicted = true;
                    }
                })
                .build();
    }

    /**
     * The copy for (app, person) if it is younger than the access memory and carries the app's
     * newest sharing version under a live app entry; otherwise empty (and the stale copy is dropped).
     *
     * <p>The read is quiet: it leaves Caffeine's eviction policy alone (no frequency count, no move
     * in the access order, no timer-wheel reschedule). At 1M copies that bookkeeping cost several
     * cache misses per read, about a third of a lookup (bench/results/2026-11-30-lookup.md). So
     * the size bound evicts by writes: the gate rewrites a person's copy at every answer (each
     * access-freshness interval while the person is active), and the copies the API confirmed least
     * recently go first, which is the order the outage rule wants. Expiry is unchanged: checked here
     * on every read, and {@link #maintain} frees expired copies at most {@link #MAINTENANCE_INTERVAL_MS}
     * after they expire while the gate is asked anything (reads no longer drive Caffeine's maintenance).
     */
    public Optional<AccessCopy> recall(String app, long personId) {
        long now = clock.millis();
        maintain(now);
        Key key = new Key(app, personId);
        Held held = copies.policy().getIfPresentQuietly(key);
        if (held == null) {
            return Optional.empty();
        }
        long age = now - held.answeredAtMs;
        if (held.app.evicted || held.sharingVersion < held.app.version || age < 0 || age >= memoryMillis) {
            copies.asMap().remove(key, held);
            return Optional.empty();
        }
        return Optional.of(held.copy());
    }

    /**
     * Runs Caffeine's maintenance (expiry of copies and of apps' versions, pending evictions) when
     * it is due, at most once per {@link #MAINTENANCE_INTERVAL_MS}, on the calling thread: one
     * caller wins the slot, the others go on at once.
     */
    private void maintain(long nowMs) {
        long due = nextMaintenanceMs.get();
        if (nowMs >= due || nowMs < due - MAINTENANCE_INTERVAL_MS) { // also when the clock was set back
            if (nextMaintenanceMs.compareAndSet(due, nowMs + MAINTENANCE_INTERVAL_MS)) {
                cleanUp();
            }
        }
    }

    /**
     * Learns from the control plane's answer to a question asked at {@code askedAtMs}: an allow or
     * a deny replaces the person's copy (a newer sharing version first drops the app's older
     * copies); an unknown app drops every copy of that app; an unusable answer changes nothing.
     *
     * @return true when the answer was remembered; false for an answer older than the app's
     *         newest sharing version, or asked before an app's entry was last evicted, or already
     *         older than the access memory: never remembered (and the person's copy is dropped)
     */
    public boolean learn(String app, long personId, AccessAnswer answer, long askedAtMs) {
        switch (answer.kind()) {
            case ALLOW, DENY -> {
                if (askedAtMs <= lastEvictionMs.get() || clock.millis() - askedAtMs >= memoryMillis) {
                    copies.invalidate(new Key(app, personId));
                    return false;
                }
                AppVersion version = raise(app, answer.sharingVersion(), true);
                Key key = new Key(version.name, personId);
                if (answer.sharingVersion() < version.version) {
                    copies.invalidate(key);
                    return false;
                }
                Held fresh = new Held(answer, askedAtMs, version);
                // Two answers racing for one person: the later question (or newer version) wins.
                copies.asMap().merge(key, fresh, (old, now) -> !old.app.evicted && newer(old, now) ? old : now);
                if (askedAtMs <= lastEvictionMs.get() || version.evicted) { // an eviction raced this answer
                    copies.invalidate(key);
                    return false;
                }
                return true;
            }
            case UNKNOWN_APP -> {
                forgetApp(app);
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * The control plane's push: the app's sharing changed to {@code sharingVersion}. Raises the
     * app's newest version and drops every copy of the app at once.
     *
     * @return how many copies were dropped
     */
    public int sharingChanged(String app, long sharingVersion) {
        raise(app, sharingVersion, false); // first, so no older answer gets in after the clearing
        return forgetApp(app);
    }

    /**
     * Drops every copy: the gate missed sharing changes it can no longer learn (a gap in the
     * sharing-changes feed). Apps' newest versions stay.
     */
    public void forgetAll() {
        copies.invalidateAll();
    }

    /** The newest sharing version kept for {@code app}; {@link Long#MIN_VALUE} before any or after its eviction. */
    public long newestVersion(String app) {
        AppVersion version = apps.getIfPresent(app);
        return version == null ? Long.MIN_VALUE : version.version;
    }

    /** Copies held, approximately (expired ones may linger until the next maintenance). */
    public long size() {
        return copies.estimatedSize();
    }

    /** Apps whose newest sharing version is held, approximately. */
    public long appsTracked() {
        return apps.estimatedSize();
    }

    /** Runs pending expiry and eviction now (tests, and the size gauge). */
    public void cleanUp() {
        apps.cleanUp();
        copies.cleanUp();
    }

    /**
     * Raises the app's newest version (rewriting its entry, which restarts the entry's age); when
     * it rose and {@code dropOlder}, drops the app's copies older than it.
     *
     * @return the app's entry after the raise
     */
    private AppVersion raise(String app, long version, boolean dropOlder) {
        // Copies of an app exist only after its version was recorded: a first version drops nothing.
        boolean[] rose = {false};
        AppVersion after = apps.asMap().compute(app, (name, old) -> {
            if (old == null || old.evicted) {
                return new AppVersion(name, version);
            }
            if (version > old.version) {
                old.version = version;
                rose[0] = true;
            }
            return old;
        });
        if (rose[0] && dropOlder) {
            copies.asMap().entrySet().removeIf(e -> e.getKey().app().equals(app) && e.getValue().sharingVersion < version);
        }
        return after;
    }

    private int forgetApp(String app) {
        int[] dropped = {0};
        copies.asMap().keySet().removeIf(key -> {
            boolean match = key.app().equals(app);
            if (match) {
                dropped[0]++;
            }
            return match;
        });
        return dropped[0];
    }

    /** True when {@code a} is a newer answer than {@code b}: a newer version, or asked later. */
    private static boolean newer(Held a, Held b) {
        if (a.sharingVersion != b.sharingVersion) {
            return a.sharingVersion > b.sharingVersion;
        }
        return a.answeredAtMs > b.answeredAtMs;
    }
}
