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
 * What the gate remembers of the control plane's visibility answers, one per app, in memory only:
 * a restarted gate knows no site, so during an outage it serves none it never learned about.
 *
 * <p>A copy is returned only while it is younger than the access memory (counted from the API's
 * answer, seed: 30 minutes) and carries the app's newest sharing version seen (from answers and
 * from the control plane's push, which a change of kind raises); at most {@code maxEntries} copies.
 * The newest-version map has one entry per app the control plane answered or pushed about (real
 * apps only: unknown apps record nothing), and is never evicted, or an older copy could count again.
 */
public final class SiteMemory {

    private final Clock clock;
    private final Duration memory;
    private final Cache<String, SiteCopy> copies;
    private final ConcurrentMap<String, Long> newestVersions = new ConcurrentHashMap<>();

    /**
     * @param clock      the gate's clock; copies age by it
     * @param memory     how long a copy lasts after the API gave it (the access memory, seed: 30 minutes)
     * @param maxEntries most copies kept (one per app)
     */
    public SiteMemory(Clock clock, Duration memory, long maxEntries) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.memory = Objects.requireNonNull(memory, "memory");
        if (memory.isNegative() || memory.isZero() || maxEntries < 0) {
            throw new IllegalArgumentException("the site memory needs a positive age and a size >= 0: " + memory + ", " + maxEntries);
        }
        // Maintenance on the calling thread; expiry is checked on every read against the clock.
        this.copies = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
    }

    /** The copy for {@code app}, if younger than the access memory and of the app's newest sharing version. */
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

    /**
     * Learns a public or private answer to a question asked at {@code askedAtMs}.
     *
     * @return false for an answer older than the app's newest sharing version: not remembered, and
     *         the caller must not rely on it
     */
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

    /** The control plane says there is no such app: its copy goes. */
    public void forget(String app) {
        copies.invalidate(app);
    }

    /**
     * The control plane's push: who may open {@code app} changed (a share, a revoke, a change of
     * kind, a deletion). Raises the app's newest version first, then drops its copy.
     *
     * @return true when a copy was dropped
     */
    public boolean sharingChanged(String app, long sharingVersion) {
        newestVersions.merge(app, sharingVersion, Math::max);
        return copies.asMap().remove(app) != null;
    }

    /** The newest sharing version seen for {@code app}; {@link Long#MIN_VALUE} before any. */
    public long newestVersion(String app) {
        return newestVersions.getOrDefault(app, Long.MIN_VALUE);
    }

    /** Drops every copy (the gate missed sharing changes it can no longer learn: issue 3's feed gap). */
    public void forgetAll() {
        copies.invalidateAll();
    }

    /** Copies held, approximately. */
    public long size() {
        return copies.estimatedSize();
    }
}
