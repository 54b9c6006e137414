package dev.qaldy.gate.shield;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.TokensInheritanceStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The shield's token buckets (Bucket4j), in memory, keyed by what they count.
 *
 * <p>Time rules:
 * <ul>
 * <li>buckets run on a monotonic meter ({@code System.nanoTime} in the gate, never the wall
 * clock, which is Bucket4j's own default), so a wall-clock step neither refills nor drains one;
 * <li>a bucket is created full once and then only refills with time: a limit that changes (a
 * config reload or a settings refresh changing the app's plan) is applied to the existing bucket
 * keeping its tokens, capped at the new burst, never topped up;
 * <li>an idle bucket is dropped only once it would be full again anyway (its refill time after
 * its last use), so dropping it grants nothing. At most {@code maxBuckets} are kept; past that the
 * least valuable go first (Caffeine's size policy) — under a flood of new addresses, a dropped
 * half-empty bucket starts full again, the price of bounded memory.
 * <li>across a restart, {@link #snapshot} and {@link #restore} carry the buckets that were not
 * full ({@link ShieldMemory} keeps them on disk); across the restart itself only the wall clock
 * can measure time, so a restored bucket is refilled by the wall-clock time since the snapshot
 * (none if the clock went back). When what was kept is lost ({@link #assumeEmptySince}), every
 * bucket created within its refill time of the loss starts as if emptied at the loss.
 * </ul>
 */
public final class RateLimiter {

    /** What a bucket counts. */
    public enum Scope {
        /** One client on one app. */
        CLIENT,
        /** Everyone on one app. */
        APP,
        /** One client on the public API. */
        API,
        /** One client's sign-ins and sign-ups. */
        SIGN_IN
    }

    /** One bucket's key; {@code app} and {@code client} are empty where the scope has none. */
    public record Key(Scope scope, String app, String client) {
        public Key {
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(app, "app");
            Objects.requireNonNull(client, "client");
        }

        public static Key client(String app, String client) {
            return new Key(Scope.CLIENT, app, client);
        }

        public static Key app(String app) {
            return new Key(Scope.APP, app, "");
        }

        public static Key api(String client) {
            return new Key(Scope.API, "", client);
        }

        public static Key signIn(String client) {
            return new Key(Scope.SIGN_IN, "", client);
        }
    }

    /**
     * What a bucket said to one request.
     *
     * @param allowed       a token was taken
     * @param limit         the bucket's capacity (its burst)
     * @param remaining     tokens left
     * @param nanosToRetry  until the next token (0 when allowed)
     * @param nanosToFull   until the bucket is full again
     */
    public record Outcome(boolean allowed, long limit, long remaining, long nanosToRetry, long nanosToFull) {
    }

    /**
     * One bucket as kept across a restart.
     *
     * @param key    what it counts
     * @param limit  the limit it was shaped by
     * @param tokens tokens left (fewer than {@code limit.burst()}: full buckets are not kept)
     */
    public record Kept(Key key, Limit limit, long tokens) {
        public Kept {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(limit, "limit");
            if (tokens < 0 || tokens >= limit.burst()) {
                throw new IllegalArgumentException("a kept bucket holds 0 to burst - 1 tokens: " + tokens + " of " + limit.burst());
            }
        }
    }

    /** A bucket and the limit it was last configured with. */
    private static final class Metered {
        final Bucket bucket;
        volatile Limit limit;
        /** Tokens and meter time at the last snapshot; only the snapshot (one thread at a time) uses them. */
        long tokensAtSnapshot = -1;
        long nanosAtSnapshot;

        Metered(Bucket bucket, Limit limit) {
            this.bucket = bucket;
            this.limit = limit;
        }

        /** Applies {@code wanted} if it differs, keeping the tokens (capped), never refilling. */
        void conform(Limit wanted) {
            if (!wanted.equals(limit)) {
                synchronized (this) {
                    if (!wanted.equals(limit)) {
                        bucket.replaceConfiguration(wanted.configuration(), TokensInheritanceStrategy.AS_IS);
                        limit = wanted;
                    }
                }
            }
        }
    }

    /** Kept a little past its refill time, so the last token taken has surely come back. */
    private static final long IDLE_SLACK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TimeMeter meter;
    private final long maxBuckets;
    private final Cache<Key, Metered> buckets;
    /** Meter time since which new buckets start as if emptied then; {@link #NEVER} when nothing was lost. */
    private volatile long emptySince = NEVER;
    private static final long NEVER = Long.MIN_VALUE;

    /**
     * @param meter      monotonic time source (nanoseconds); a wall-clock meter is refused
     * @param maxBuckets most buckets kept
     */
    public RateLimiter(TimeMeter meter, long maxBuckets) {
        this.meter = Objects.requireNonNull(meter, "meter");
        this.maxBuckets = maxBuckets;
        if (meter.isWallClockBased()) {
            throw new IllegalArgumentException("rate limits need a monotonic time meter, not the wall clock");
        }
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("max-buckets must be at least 1: " + maxBuckets);
        }
        this.buckets = Caffeine.newBuilder()
                .maximumSize(maxBuckets)
                .ticker(meter::currentTimeNanos)
                .executor(Runnable::run) // maintenance on the calling thread: no pool of its own in the server
                .expireAfter(new Expiry<Key, Metered>() {
                    @Override
                    public long expireAfterCreate(Key key, Metered value, long now) {
                        return idle(value);
                    }

                    @Override
                    public long expireAfterUpdate(Key key, Metered value, long now, long left) {
                        return idle(value);
                    }

                    @Override
                    public long expireAfterRead(Key key, Metered value, long now, long left) {
                        return idle(value);
                    }

                    private long idle(Metered value) {
                        return value.limit.nanosToRefill() + IDLE_SLACK_NANOS;
                    }
                })
                .build();
    }

    /** Takes one token from the bucket {@code key}, shaped by {@code limit}. */
    public Outcome take(Key key, Limit limit) {
        Metered metered = buckets.get(key, k -> new Metered(bucket(limit, initialTokens(limit)), limit));
        metered.conform(limit);
        ConsumptionProbe probe = metered.bucket.tryConsumeAndReturnRemaining(1);
        return new Outcome(probe.isConsumed(), limit.burst(), probe.getRemainingTokens(),
                probe.isConsumed() ? 0 : probe.getNanosToWaitForRefill(), probe.getNanosToWaitForReset());
    }

    /**
     * Gives back the token a request took from {@code key} when a later step refused it (the
     * per-app bucket was empty): the client is not charged for a request that never went through.
     */
    public void giveBack(Key key) {
        Metered metered = buckets.getIfPresent(key);
        if (metered != null) {
            metered.bucket.addTokens(1);
        }
    }

    /** A new bucket's tokens: full, unless what was kept was lost within its refill time. */
    private long initialTokens(Limit limit) {
        long since = emptySince;
        if (since == NEVER) {
            return limit.burst();
        }
        return Math.min(limit.burst(), limit.tokensRefilledIn(meter.currentTimeNanos() - since));
    }

    private Bucket bucket(Limit limit, long tokens) {
        return Bucket.builder().addLimit(limit.bandwidth(tokens)).withCustomTimePrecision(meter).build();
    }

    /**
     * The buckets that are not full, each with its tokens, for {@link #restore} after a restart.
     * With {@code reserve}, each is written with fewer tokens, by what it used since the last
     * snapshot (as if it went on using them at that pace until the gate was killed before the next
     * one), never below 0; without (a graceful stop), as it is. One caller at a time.
     */
    public synchronized List<Kept> snapshot(boolean reserve) {
        List<Kept> kept = new ArrayList<>();
        long now = meter.currentTimeNanos();
        buckets.asMap().forEach((key, metered) -> {
            Limit limit = metered.limit;
            long tokens = Math.min(limit.burst(), metered.bucket.getAvailableTokens());
            long written = tokens;
            if (reserve && metered.tokensAtSnapshot >= 0) {
                long expected = Math.min(limit.burst(), metered.tokensAtSnapshot + limit.tokensRefilledIn(now - metered.nanosAtSnapshot));
                written = Math.max(0, tokens - Math.max(0, expected - tokens));
            }
            metered.tokensAtSnapshot = tokens;
            metered.nanosAtSnapshot = now;
            if (written < limit.burst()) {
                kept.add(new Kept(key, limit, written));
            }
        });
        return kept;
    }

    /**
     * Puts back a bucket kept before a restart, refilled by {@code elapsedMillis} of wall-clock
     * time since it was kept (negative counts as none); one that would be full again is not put
     * back, nor one the limiter holds already.
     */
    public void restore(Kept kept, long elapsedMillis) {
        long refilled = kept.limit().tokensRefilledIn(TimeUnit.MILLISECONDS.toNanos(Math.max(0, elapsedMillis)));
        long tokens = Math.min(kept.limit().burst(), kept.tokens() + refilled);
        if (tokens < kept.limit().burst()) {
            buckets.asMap().putIfAbsent(kept.key(), new Metered(bucket(kept.limit(), tokens), kept.limit()));
        }
    }

    /**
     * What was kept is lost (a corrupt file): from now on, a bucket created within its refill time
     * of {@code lostAtNanos} (meter time) starts as if emptied then (seed's rule: a limit that
     * cannot be known counts as used up for the rest of its window, never as unused).
     */
    public void assumeEmptySince(long lostAtNanos) {
        emptySince = lostAtNanos;
    }

    /** Most buckets held. */
    public long maxBuckets() {
        return maxBuckets;
    }

    /** Buckets held now (an estimate). */
    public long size() {
        return buckets.estimatedSize();
    }

    /** Runs pending evictions (tests). */
    void cleanUp() {
        buckets.cleanUp();
    }
}
