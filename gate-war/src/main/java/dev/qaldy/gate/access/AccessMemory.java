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
 * after its last answer or push, and fewer than {@code maxApps} may be kept. A copy is trusted only
 * while its app's entry is there and was there when the copy was learned, so an evicted entry takes
 * the app's copies with it (they are treated as unknown until they expire). An answer to a question
 * asked at or before the last eviction is never remembered: it could predate a push the gate
 * forgot, and remembering it would let an older copy count again.
 *
 * <p>Memory: every copy of one app shares the app's name String (held by its version entry), so a
 * copy costs its key, its value and Caffeine's node (about 170 bytes; bench/ measures it).
 */
public final class AccessMemory {

    /** Default most apps whose newest sharing version is kept. */
    public static final long DEFAULT_MAX_APPS = 100_000;

    /** The key of one copy; {@code app} is the app's shared name instance when stored. */
    record Key(String app, long personId) {
        Key {
            Objects.requireNonNull(app, "app");
        }
    }

    /**
     * One app's newest sharing version, the name instance its copies share, and since when (epoch
     * ms) this entry exists: a copy of an answer asked before that belongs to an earlier, evicted
     * entry, or raced its creation, and is not trusted.
     */
    record AppVersion(String name, long version, long sinceMs) {
    }

    private final Clock clock;
    private final Duration memory;
    private final long memoryMillis;
    private final Cache<Key, AccessCopy> copies;
    private final Cache<String, AppVersion> apps;
    /** When an app's version entry was last evicted (epoch ms), for size or age. */
    private final AtomicLong lastEvictionMs = new AtomicLong(Long.MIN_VALUE);

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
        this.memory = Objects.requireNonNull(memory, "memory");
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
                .expireAfter(new Expiry<Key, AccessCopy>() {
                    @Override
                    public long expireAfterCreate(Key key, AccessCopy copy, long nowNanos) {
                        return left(copy, nowNanos);
                    }

                    @Override
                    public long expireAfterUpdate(Key key, AccessCopy copy, long nowNanos, long currentLeft) {
                        return left(copy, nowNanos);
                    }

                    @Override
                    public long expireAfterRead(Key key, AccessCopy copy, long nowNanos, long currentLeft) {
                        return currentLeft; // reading never extends a copy's life
                    }

                    private long left(AccessCopy copy, long nowNanos) {
                        long age = nowNanos - TimeUnit.MILLISECONDS.toNanos(copy.answeredAtMs());
                        return Math.max(0, memoryNanos - Math.max(0, age));
                    }
                })
                .build();
        this.apps = Caffeine.newBuilder()
                .maximumSize(maxApps)
                .ticker(ticker)
                .executor(Runnable::run)
                // Every answer or push rewrites the entry, so it outlives every copy of the app.
                .expireAfterWrite(memory)
                // Synchronous, inside the removal: no answer can be learned in between unnoticed.
                .evictionListener((String app, AppVersion version, RemovalCause cause) ->
                        lastEvictionMs.accumulateAndGet(clock.millis(), Math::max))
                .build();
    }

    /**
     * The copy for (app, person) if it is younger than the access memory and carries the app's
     * newest sharing version; otherwise empty (and the stale copy is dropped).
     */
    public Optional<AccessCopy> recall(String app, long personId) {
        Key key = new Key(app, personId);
        AccessCopy copy = copies.getIfPresent(key);
        if (copy == null) {
            return Optional.empty();
        }
        AppVersion version = apps.getIfPresent(app);
        if (version == null || copy.sharingVersion() < version.version() || copy.answeredAtMs() < version.sinceMs()
                || !copy.youngerThan(memory, clock.millis())) {
            copies.asMap().remove(key, copy);
            return Optional.empty();
        }
        return Optional.of(copy);
    }

    /**
     * Learns from the control plane's answer to a question asked at {@code askedAtMs}: an allow or
     * a deny replaces the person's copy (a newer sharing version first drops the app's older
     * copies); an unknown app drops every copy of that app; an unusable answer changes nothing.
     *
     * @return true when the answer was remembered; false for an answer older than the app's
     *         newest sharing version, or asked before an app's version entry was last evicted, or
     *         already older than the access memory: never remembered (and the person's copy is dropped)
     */
    public boolean learn(String app, long personId, AccessAnswer answer, long askedAtMs) {
        switch (answer.kind()) {
            case ALLOW, DENY -> {
                if (askedAtMs <= lastEvictionMs.get() || clock.millis() - askedAtMs >= memoryMillis) {
                    copies.invalidate(new Key(app, personId));
                    return false;
                }
                AppVersion version = raise(app, answer.sharingVersion(), askedAtMs);
                Key key = new Key(version.name(), personId);
                if (answer.sharingVersion() < version.version()) {
                    copies.invalidate(key);
                    return false;
                }
                AccessCopy fresh = AccessCopy.of(answer, askedAtMs);
                // Two answers racing for one person: the later question (or newer version) wins.
                copies.asMap().merge(key, fresh, (old, now) -> newer(old, now) ? old : now);
                if (askedAtMs <= lastEvictionMs.get()) { // an eviction raced this answer
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
        // First, so no older answer gets in after the clearing. A new entry trusts no copy from before it.
        apps.asMap().compute(app, (name, old) -> old == null
                ? new AppVersion(name, sharingVersion, Math.max(clock.millis(), lastEvictionMs.get() + 1))
                : new AppVersion(old.name(), Math.max(old.version(), sharingVersion), old.sinceMs()));
        return forgetApp(app);
    }

    /** The newest sharing version kept for {@code app}; {@link Long#MIN_VALUE} before any or after its eviction. */
    public long newestVersion(String app) {
        AppVersion version = apps.getIfPresent(app);
        return version == null ? Long.MIN_VALUE : version.version();
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
     * it rose, drops the app's copies older than it.
     *
     * @return the app's entry after the raise
     */
    private AppVersion raise(String app, long version, long askedAtMs) {
        // Copies of an app exist only after its version was recorded: a first version drops nothing.
        AppVersion[] before = {null};
        AppVersion after = apps.asMap().compute(app, (name, old) -> {
            before[0] = old;
            return old == null
                    ? new AppVersion(name, version, askedAtMs)
                    : new AppVersion(old.name(), Math.max(old.version(), version), old.sinceMs());
        });
        if (before[0] != null && version > before[0].version()) {
            copies.asMap().entrySet().removeIf(e -> e.getKey().app().equals(app) && e.getValue().sharingVersion() < version);
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
    private static boolean newer(AccessCopy a, AccessCopy b) {
        if (a.sharingVersion() != b.sharingVersion()) {
            return a.sharingVersion() > b.sharingVersion();
        }
        return a.answeredAtMs() > b.answeredAtMs();
    }
}
