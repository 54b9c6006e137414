package dev.qaldy.gate.shield;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import java.math.BigInteger;
import java.time.Duration;

/**
 * One token bucket's shape: refilled evenly at {@code perMinute} tokens a minute, holding at most
 * {@code burst}. A full bucket lets {@code burst} requests through at once, then
 * {@code perMinute / 60} a second.
 *
 * @param perMinute tokens added per minute (≥ 1)
 * @param burst     bucket capacity (≥ 1)
 */
public record Limit(long perMinute, long burst) {

    public Limit {
        if (perMinute < 1 || burst < 1) {
            throw new IllegalArgumentException("a rate limit needs at least 1 a minute and a burst of at least 1: "
                    + perMinute + "/min, burst " + burst);
        }
    }

    /** The default burst for a per-minute rate: ten seconds' worth, at least 1. */
    public static long defaultBurst(long perMinute) {
        return Math.max(1, perMinute / 6);
    }

    /** The Bucket4j bandwidth: capacity {@code burst}, refilled evenly (greedy), starting full. */
    Bandwidth bandwidth() {
        return bandwidth(burst);
    }

    /** As {@link #bandwidth()}, starting with {@code tokens} (0 to {@code burst}). */
    Bandwidth bandwidth(long tokens) {
        return Bandwidth.builder().capacity(burst).refillGreedy(perMinute, Duration.ofMinutes(1))
                .initialTokens(Math.max(0, Math.min(burst, tokens))).build();
    }

    /** Whole tokens an empty bucket gains in {@code nanos} (rounded down; 0 for none or negative), at most {@code burst}. */
    long tokensRefilledIn(long nanos) {
        if (nanos <= 0) {
            return 0;
        }
        if (nanos >= nanosToRefill()) {
            return burst;
        }
        try {
            return Math.min(burst, Math.multiplyExact(nanos, perMinute) / Duration.ofMinutes(1).toNanos());
        } catch (ArithmeticException huge) {
            return Math.min(burst, BigInteger.valueOf(nanos).multiply(BigInteger.valueOf(perMinute))
                    .divide(BigInteger.valueOf(Duration.ofMinutes(1).toNanos())).longValue());
        }
    }

    /** A bucket configuration of this one bandwidth. */
    BucketConfiguration configuration() {
        return BucketConfiguration.builder().addLimit(bandwidth()).build();
    }

    /** How long an empty bucket takes to be full again, in nanoseconds (rounded up). */
    long nanosToRefill() {
        try {
            return Math.addExact(Math.multiplyExact(burst, Duration.ofMinutes(1).toNanos()), perMinute - 1) / perMinute;
        } catch (ArithmeticException aLongTime) {
            return Long.MAX_VALUE / 4;
        }
    }
}
