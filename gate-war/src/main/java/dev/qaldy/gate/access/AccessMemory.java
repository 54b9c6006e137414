package dev.qaldy.gate.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
 * <li>at most {@code maxEntries} copies.
 * </ul>
 * The newest-version map has one entry per app the control plane answered or pushed about, so it
 * is bounded by the apps of the cell; it is never evicted, or an older copy could count again.
 */
public final class AccessMemory {

    /** The key of one copy. */
    record Key(String app, long personId) {
        Key {
            Objects.requireNonNull(app, "app");
        }
    }

    private final Clock clock;
    private final Duration memory;
    private final Cache<Key, AccessCopy> copies;
    private final ConcurrentMap<String, Long> newestVersions = new ConcurrentHashMap<>();

    /**
     * @param clock      the gate's clock; copies age by it
     * @param memory     how long a copy lasts after the API gave it (seed: 30 minutes)
     * @param maxEntries most copies kept
     */
    public AccessMemory(Clock clock, Duration memory, long maxEntries) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.memory = Objects.requireNonNull(memory, "memory");
        if (memory.isNegative() || memory.isZero()) {
            throw new IllegalArgumentException("the access memory must be positive: " + memory);
        }
        if (maxEntries < 0) {
            throw new IllegalArgumentException("the access memory size must not be negative: " + maxEntries);
        }
        long memoryNanos = memory.toNanos();
        this.copies = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                // Caffeine measures time in nanoseconds; ours come from the clock, so tests move both.
                .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
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
        if (copy.sharingVersion() < newestVersion(app) || !copy.youngerThan(memory, clock.millis())) {
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
     *         newest sharing version, which is never remembered (and drops the person's copy)
     */
    public boolean learn(String app, long personId, AccessAnswer answer, long askedAtMs) {
        Key key = new Key(app, personId);
        switch (answer.kind()) {
            case ALLOW, DENY -> {
                raise(app, answer.sharingVersion());
                if (answer.sharingVersion() < newestVersion(app)) {
                    copies.invalidate(key);
                    return false;
                }
                AccessCopy fresh = AccessCopy.of(answer, askedAtMs);
                // Two answers racing for one person: the later question (or newer version) wins.
                copies.asMap().merge(key, fresh, (old, now) -> newer(old, now) ? old : now);
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
        newestVersions.merge(app, sharingVersion, Math::max); // first, so no older answer gets in after the clearing
        return forgetApp(app);
    }

    /** The newest sharing version seen for {@code app}; {@link Long#MIN_VALUE} before any. */
    public long newestVersion(String app) {
        return newestVersions.getOrDefault(app, Long.MIN_VALUE);
    }

    /** Copies held, approximately (expired ones may linger until the next maintenance). */
    public long size() {
        return copies.estimatedSize();
    }

    /** Runs pending expiry and eviction now (tests, and the size gauge). */
    public void cleanUp() {
        copies.cleanUp();
    }

    /** Raises the app's newest version; when it rose, drops the app's copies older than it. */
    private void raise(String app, long version) {
        // Copies of an app exist only after its version was recorded: a first version drops nothing.
        AtomicLong before = new AtomicLong(Long.MAX_VALUE);
        newestVersions.merge(app, version, (old, now) -> {
            before.set(old);
            return Math.max(old, now);
        });
        if (version > before.get()) {
            copies.asMap().entrySet().removeIf(e -> e.getKey().app().equals(app) && e.getValue().sharingVersion() < version);
        }
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
