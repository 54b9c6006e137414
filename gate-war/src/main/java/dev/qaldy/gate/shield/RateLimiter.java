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
 * <ul>
 * <li>Buckets run on a monotonic meter, never the wall clock (Bucket4j's default), so a clock step
 * neither refills nor drains one.
 * <li>A bucket is created full once and then only refills: a changed limit keeps its tokens,
 * capped at the new burst, never topped up.
 * <li>An idle bucket is dropped only once it would be full again, so dropping grants nothing; past
 * {@code maxBuckets} Caffeine's size policy drops some early, the price of bounded memory.
 * <li>Across a restart ({@link #snapshot}, {@link #restore}, on disk via {@link ShieldMemory}) a
 * bucket refills by the wall-clock time since the snapshot; when that is lost,
 * {@link #assumeEmptySince} applies.
 * </ul>
 */
public final class RateLimiter {

    public enum Scope {
        CLIENT,
        APP,
        API,
        /** Sign-ins and sign-ups. */
        SIGN_IN
    }

    /** {@code app} and {@code client} are empty where the scope has none. */
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
     * @param limit        the bucket's burst
     * @param nanosToRetry until the next token (0 when allowed)
     * @param nanosToFull  until the bucket is full again
     */
    public record Outcome(boolean allowed, long limit, long remaining, long nanosToRetry, long nanosToFull) {
    }

    /** @param tokens fewer than {@code limit.burst()}: full buckets are not kept */
    public record Kept(Key key, Limit limit, long tokens) {
        public Kept {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(limit, "limit");
            if (tokens < 0 || tokens >= limit.burst()) {
                throw new IllegalArgumentException("a kept bucket holds 0 to burst - 1 tokens: " + tokens + " of " + limit.burst());
            }
        }
    }

    private static final class Metered {
        final Bucket bucket;
        volatile Limit limit;
        /** Used only by the snapshot (one thread at a time). */
        long tokensAtSnapshot = -1;
        long nanosAtSnapshot;

        Metered(Bucket bucket, Limit limit) {
            this.bucket = bucket;
            this.limit = limit;
        }

        /** Keeps the tokens (capped), never refills. */
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

    /** So the last token taken has surely come back. */
    private static final long IDLE_SLACK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TimeMeter meter;
    private final long maxBuckets;
    private final Cache<Key, Metered> buckets;
    /** Meter time since which new buckets start as if emptied then. */
    private volatile long emptySince = NEVER;
    private static final long NEVER = Long.MIN_VALUE;

    /** @param meter monotonic (ns); a wall-clock meter is refused */
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

    public Outcome take(Key key, Limit limit) {
        Metered metered = buckets.get(key, k -> new Metered(bucket(limit, initialTokens(limit)), limit));
        metered.conform(limit);
        ConsumptionProbe probe = metered.bucket.tryConsumeAndReturnRemaining(1);
        return new Outcome(probe.isConsumed(), limit.burst(), probe.getRemainingTokens(),
                probe.isConsumed() ? 0 : probe.getNanosToWaitForRefill(), probe.getNanosToWaitForReset());
    }

    /** Gives back a token when a later step refused the request (the per-app bucket was empty). */
    public void giveBack(Key key) {
        Metered metered = buckets.getIfPresent(key);
        if (metered != null) {
            metered.bucket.addTokens(1);
        }
    }

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
     * The buckets not full, for {@link #restore}. With {@code reserve}, each is written with fewer
     * tokens by what it used since the last snapshot, as if that pace went on until a kill; one caller
     * at a time.
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

    /** Puts back a kept bucket refilled by {@code elapsedMillis} (negative: none), unless full again or held already. */
    public void restore(Kept kept, long elapsedMillis) {
        long refilled = kept.limit().tokensRefilledIn(TimeUnit.MILLISECONDS.toNanos(Math.max(0, elapsedMillis)));
        long tokens = Math.min(kept.limit().burst(), kept.tokens() + refilled);
        if (tokens < kept.limit().burst()) {
            buckets.asMap().putIfAbsent(kept.key(), new Metered(bucket(kept.limit(), tokens), kept.limit()));
        }
    }

    /** What was kept is lost ({@link ShieldMemory}'s rule): a bucket created within its refill time of {@code lostAtNanos} starts as if emptied then. */
    public void assumeEmptySince(long lostAtNanos) {
        emptySince = lostAtNanos;
    }

    public long maxBuckets() {
        return maxBuckets;
    }

    /** An estimate. */
    public long size() {
        return buckets.estimatedSize();
    }

    void cleanUp() {
        buckets.cleanUp();
    }
}
