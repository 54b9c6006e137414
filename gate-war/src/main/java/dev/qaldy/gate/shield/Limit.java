package dev.qaldy.gate.shield;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import java.math.BigInteger;
import java.time.Duration;

/**
 * One token bucket's shape: {@code burst} at once, then refilled evenly at {@code perMinute} a minute.
 * Both ≥ 1.
 */
public record Limit(long perMinute, long burst) {

    public Limit {
        if (perMinute < 1 || burst < 1) {
            throw new IllegalArgumentException("a rate limit needs at least 1 a minute and a burst of at least 1: "
                    + perMinute + "/min, burst " + burst);
        }
    }

    /** Ten seconds' worth, at least 1. */
    public static long defaultBurst(long perMinute) {
        return Math.max(1, perMinute / 6);
    }

    /** Refilled greedily, starting full. */
    Bandwidth bandwidth() {
        return bandwidth(burst);
    }

    /** Starting with {@code tokens}, clamped to 0..{@code burst}. */
    Bandwidth bandwidth(long tokens) {
        return Bandwidth.builder().capacity(burst).refillGreedy(perMinute, Duration.ofMinutes(1))
                .initialTokens(Math.max(0, Math.min(burst, tokens))).build();
    }

    /** Whole tokens an empty bucket gains in {@code nanos}, rounded down, at most {@code burst}. */
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

    BucketConfiguration configuration() {
        return BucketConfiguration.builder().addLimit(bandwidth()).build();
    }

    /** Rounded up. */
    long nanosToRefill() {
        try {
            return Math.addExact(Math.multiplyExact(burst, Duration.ofMinutes(1).toNanos()), perMinute - 1) / perMinute;
        } catch (ArithmeticException aLongTime) {
            return Long.MAX_VALUE / 4;
        }
    }
}
