package dev.qaldy.gate.sites;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The control plane's visibility answers, one per app, in memory only: a restarted gate serves no
 * site it never learned about. A copy is returned only while younger than the access memory (from
 * the question it answers; seed: 30 minutes) and of the app's newest sharing version seen (answers
 * and pushes). The newest-version map holds real apps only and is never evicted, or an older copy
 * could count again.
 */
public final class SiteMemory {

    private final Clock clock;
    private final Duration memory;
    private final Cache<String, SiteCopy> copies;
    private final ConcurrentMap<String, Long> newestVersions = new ConcurrentHashMap<>();

    /** @param memory how long a copy lasts from the question it answers (the access memory) */
    public SiteMemory(Clock clock, Duration memory, long maxEntries) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.memory = Objects.requireNonNull(memory, "memory");
        if (memory.isNegative() || memory.isZero() || maxEntries < 0) {
            throw new IllegalArgumentException("the site memory needs a positive age and a size >= 0: " + memory + ", " + maxEntries);
        }
        // Maintenance on the calling thread; expiry is checked on every read against the clock.
        this.copies = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
    }

    public Optional<SiteCopy> recall(String app) {
        SiteCopy copy = copies.getIfPresent(app);
        if (copy == null) {
            return Optional.empty();
        }
        if (copy.sharingVersion() < newestVersion(app) || !copy.youngerThan(memory, clock.millis())) {
            copies.asMap().remove(app, copy);
            return Optional.empty();
        }
        return Optional.of(copy);
    }

    /** @return false for an answer older than the app's newest sharing version: not remembered, not to be relied on */
    public boolean learn(String app, boolean isPublic, long sharingVersion, long accountId, long askedAtMs) {
        long newest = newestVersions.merge(app, sharingVersion, Math::max);
        if (sharingVersion < newest) {
            copies.invalidate(app);
            return false;
        }
        SiteCopy fresh = new SiteCopy(isPublic, sharingVersion, accountId, askedAtMs);
        // Two answers racing: the newer version, else the later question, wins.
        copies.asMap().merge(app, fresh, (old, now) -> old.sharingVersion() > now.sharingVersion()
                || old.sharingVersion() == now.sharingVersion() && old.answeredAtMs() > now.answeredAtMs() ? old : now);
        return true;
    }

    public void forget(String app) {
        copies.invalidate(app);
    }

    /** The control plane's push (a share, a revoke, a change of kind, a deletion); true when a copy was dropped. */
    public boolean sharingChanged(String app, long sharingVersion) {
        newestVersions.merge(app, sharingVersion, Math::max);
        return copies.asMap().remove(app) != null;
    }

    /** {@link Long#MIN_VALUE} before any. */
    public long newestVersion(String app) {
        return newestVersions.getOrDefault(app, Long.MIN_VALUE);
    }

    /** After a gap in the sharing-changes feed (issue 3). */
    public void forgetAll() {
        copies.invalidateAll();
    }

    public long size() {
        return copies.estimatedSize();
    }
}
