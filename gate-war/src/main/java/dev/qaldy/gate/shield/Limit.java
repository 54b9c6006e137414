package dev.qaldy.gate.shield;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
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
        return Bandwidth.builder().capacity(burst).refillGreedy(perMinute, Duration.ofMinutes(1)).build();
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
