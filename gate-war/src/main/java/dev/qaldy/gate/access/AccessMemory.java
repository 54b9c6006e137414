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
 * The control plane's access answers per (app, person), in memory only: a restarted gate remembers
 * nothing (seed: it refuses what it never knew). Checked on every read against the injected clock:
 * <ul>
 * <li>a copy is gone at the access-memory age, counted from when the question was asked;
 * <li>a copy older than the app's newest sharing version seen (answers and pushes) is never returned;
 * <li>a copy learned under an app entry since evicted is never trusted again, and an answer to a
 * question asked at or before any size eviction is not remembered (it could predate a forgotten push).
 * </ul>
 * At most {@code maxEntries} copies and {@code maxApps} app entries; a copy costs under 200 bytes
 * (measured in bench/), as copies share their app's name String.
 */
public final class AccessMemory {

    /** Ms; an expired copy's memory is freed this late at most. */
    static final long MAINTENANCE_INTERVAL_MS = 1000;

    public static final long DEFAULT_MAX_APPS = 100_000;

    /** {@code app} is the app's shared name instance when stored. */
    record Key(String app, long personId) {
        Key {
            Objects.requireNonNull(app, "app");
        }
    }

    /** One app's entry: the shared name and the newest sharing version seen (only rises, inside the app's compute). */
    static final class AppVersion {
        final String name;
        volatile long version;
        volatile boolean evicted;

        AppVersion(String name, long version) {
            this.name = name;
            this.version = version;
        }
    }

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
    /** Epoch ms of the last size eviction of an app entry. */
    private final AtomicLong lastEvictionMs = new AtomicLong(Long.MIN_VALUE);
    /** Epoch ms; see {@link #maintain}. */
    private final AtomicLong nextMaintenanceMs = new AtomicLong(0);

    public AccessMemory(Clock clock, Duration memory, long maxEntries) {
        this(clock, memory, maxEntries, DEFAULT_MAX_APPS);
    }

    /**
     * @param memory  how long a copy lasts from the question it answers (seed: 30 minutes)
     * @param maxApps most apps whose newest sharing version is kept; an evicted app's copies go with it
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
        Ticker ticker = () -> TimeUnit.MILLISECONDS.toNanos(clock.millis());
        this.copies = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .ticker(ticker)
                // Maintenance on the calling thread: no pool of its own inside the server.
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
                // Synchronous, so an answer learned meanwhile sees the mark. Only the size bound loses knowledge:
                // an expired entry had no answer or push for the whole access memory, so no copy of it is alive.
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
     * The copy for (app, person) if it is younger than the access memory and carries the app's newest
     * sharing version under a live app entry; otherwise empty, and a stale copy is dropped.
     *
     * <p>The read is quiet (no Caffeine policy bookkeeping): at 1M copies that was about a third of a
     * lookup (bench/results/2026-11-30-lookup.md). So the size bound evicts the copies the API confirmed
     * least recently, and {@link #maintain} frees expired ones.
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

    /** Runs Caffeine's maintenance at most once per {@link #MAINTENANCE_INTERVAL_MS}; one caller wins the slot. */
    private void maintain(long nowMs) {
        long due = nextMaintenanceMs.get();
        if (nowMs >= due || nowMs < due - MAINTENANCE_INTERVAL_MS) { // also when the clock was set back
            if (nextMaintenanceMs.compareAndSet(due, nowMs + MAINTENANCE_INTERVAL_MS)) {
                cleanUp();
            }
        }
    }

    /**
     * Learns the control plane's answer to a question asked at {@code askedAtMs}: an allow or deny
     * replaces the person's copy; an unknown app drops the app's copies; anything else changes nothing.
     *
     * @return false when not remembered: older than the app's newest sharing version, asked before an
     *         app entry's last eviction, or already older than the access memory (the copy is dropped)
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

    /** The control plane's push: raises the app's newest version and drops its copies; returns how many. */
    public int sharingChanged(String app, long sharingVersion) {
        raise(app, sharingVersion, false); // first, so no older answer gets in after the clearing
        return forgetApp(app);
    }

    /** Drops every copy, after a gap in the sharing-changes feed; apps' newest versions stay. */
    public void forgetAll() {
        copies.invalidateAll();
    }

    /** {@link Long#MIN_VALUE} before any or after its eviction. */
    public long newestVersion(String app) {
        AppVersion version = apps.getIfPresent(app);
        return version == null ? Long.MIN_VALUE : version.version;
    }

    /** Approximate: expired copies may linger until the next maintenance. */
    public long size() {
        return copies.estimatedSize();
    }

    public long appsTracked() {
        return apps.estimatedSize();
    }

    /** Tests, and the size gauge. */
    public void cleanUp() {
        apps.cleanUp();
        copies.cleanUp();
    }

    /** Rewriting the entry restarts its age; when it rose and {@code dropOlder}, drops older copies. */
    private AppVersion raise(String app, long version, boolean dropOlder) {
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

    private static boolean newer(Held a, Held b) {
        if (a.sharingVersion != b.sharingVersion) {
            return a.sharingVersion > b.sharingVersion;
        }
        return a.answeredAtMs > b.answeredAtMs;
    }
}
