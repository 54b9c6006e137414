package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.shield.RateLimiter.Key;
import dev.qaldy.gate.shield.RateLimiter.Outcome;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimiterTest {

    private final FakeTime time = new FakeTime(Instant.parse("2025-06-01T12:00:00Z"));
    private final RateLimiter limiter = new RateLimiter(time, 1000);
    /** 60 a minute (one a second), burst 10. */
    private final Limit limit = new Limit(60, 10);
    private final Key ann = Key.client("guestbook", "203.0.113.1");

    private int takeAll(Key key, Limit l) {
        int taken = 0;
        while (limiter.take(key, l).allowed()) {
            taken++;
            if (taken > 1_000_000) {
                throw new AssertionError("no limit");
            }
        }
        return taken;
    }

    @Test
    void aFullBucketLetsTheBurstThroughThenOneASecond() {
        for (int i = 0; i < 10; i++) {
            Outcome outcome = limiter.take(ann, limit);
            assertThat(outcome.allowed()).isTrue();
            assertThat(outcome.limit()).isEqualTo(10);
            assertThat(outcome.remaining()).isEqualTo(9 - i);
        }
        Outcome refused = limiter.take(ann, limit);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.nanosToRetry()).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(refused.nanosToFull()).isEqualTo(Duration.ofSeconds(10).toNanos());

        time.pass(Duration.ofMillis(999));
        assertThat(limiter.take(ann, limit).allowed()).as("not before the second is up").isFalse();
        time.pass(Duration.ofMillis(1));
        assertThat(limiter.take(ann, limit).allowed()).isTrue();
        assertThat(limiter.take(ann, limit).allowed()).isFalse();

        time.pass(Duration.ofMinutes(5));
        assertThat(takeAll(ann, limit)).as("never more than the burst, however long it rested").isEqualTo(10);
    }

    @Test
    void bucketsAreKeyedByClientAndApp() {
        assertThat(takeAll(ann, limit)).isEqualTo(10);
        assertThat(limiter.take(Key.client("guestbook", "203.0.113.2"), limit).allowed()).as("another client").isTrue();
        assertThat(limiter.take(Key.client("memo", "203.0.113.1"), limit).allowed()).as("another app").isTrue();
        assertThat(limiter.take(Key.app("guestbook"), limit).allowed()).as("the app's own bucket").isTrue();
        assertThat(limiter.take(Key.api("203.0.113.1"), limit).allowed()).isTrue();
        assertThat(limiter.take(Key.signIn("203.0.113.1"), limit).allowed()).isTrue();
    }

    @ParameterizedTest(name = "wall clock stepped {0}")
    @CsvSource({"PT2H", "-PT2H", "P3D", "-P3D", "PT0.5S"})
    void aWallClockStepNeitherRefillsNorDrains(Duration step) {
        assertThat(takeAll(ann, limit)).isEqualTo(10);
        time.stepWall(step);
        assertThat(limiter.take(ann, limit).allowed()).as("no refill from the wall clock").isFalse();
        time.pass(Duration.ofSeconds(1));
        assertThat(limiter.take(ann, limit).allowed()).as("monotonic time refills as usual").isTrue();

        Key fresh = Key.client("guestbook", "198.51.100.1");
        assertThat(limiter.take(fresh, limit).allowed()).isTrue();
        time.stepWall(step.negated());
        assertThat(takeAll(fresh, limit)).as("nobody new is blocked, nobody drained").isEqualTo(9);
    }

    @Test
    void aChangedLimitKeepsTheTokensAndNeverRefills() {
        assertThat(takeAll(ann, limit)).isEqualTo(10);
        Limit bigger = new Limit(600, 100); // the app moved to a bigger plan, or config was reloaded
        Outcome after = limiter.take(ann, bigger);
        assertThat(after.allowed()).as("the empty bucket stays empty").isFalse();
        assertThat(after.limit()).isEqualTo(100);
        time.pass(Duration.ofSeconds(1));
        assertThat(takeAll(ann, bigger)).as("and refills at the new rate").isEqualTo(10);

        Key bob = Key.client("guestbook", "203.0.113.2");
        limiter.take(bob, bigger);
        assertThat(takeAll(bob, new Limit(60, 5))).as("a smaller burst caps what is left").isEqualTo(5);
        assertThat(takeAll(bob, limit)).as("changing back grants nothing").isZero();
    }

    @Test
    void anIdleBucketIsDroppedOnlyWhenItWouldBeFullAnyway() {
        assertThat(takeAll(ann, limit)).isEqualTo(10);
        time.pass(Duration.ofSeconds(5));
        limiter.cleanUp();
        assertThat(limiter.size()).isEqualTo(1);
        assertThat(takeAll(ann, limit)).as("half refilled, still held").isEqualTo(5);

        time.pass(Duration.ofSeconds(12)); // past the 10 s refill time plus slack
        limiter.cleanUp();
        assertThat(limiter.size()).isZero();
        assertThat(takeAll(ann, limit)).as("a new bucket: the same as the old one refilled").isEqualTo(10);
    }

    @Test
    void memoryIsBounded() {
        RateLimiter small = new RateLimiter(time, 100);
        for (int i = 0; i < 5000; i++) {
            small.take(Key.client("guestbook", "10.0." + (i / 256) + "." + (i % 256)), limit);
        }
        small.cleanUp();
        assertThat(small.size()).isLessThanOrEqualTo(100);
    }

    @Test
    void theWallClockIsRefused() {
        assertThatThrownBy(() -> new RateLimiter(TimeMeter.SYSTEM_MILLISECONDS, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThat(TimeMeter.SYSTEM_NANOTIME.isWallClockBased()).as("what the gate runs on").isFalse();
        assertThat(new RateLimiter(TimeMeter.SYSTEM_NANOTIME, 10).take(ann, limit).allowed()).isTrue();
    }

    @ParameterizedTest(name = "{0}/min burst {1}: empty → full in {2}")
    @CsvSource({"60, 10, PT10S", "600, 100, PT10S", "6000, 1000, PT10S", "1, 1, PT1M", "7, 3, PT25.714285715S"})
    void refillTimeIsExact(long perMinute, long burst, Duration full) {
        assertThat(new Limit(perMinute, burst).nanosToRefill()).isEqualTo(full.toNanos());
    }

    @Test
    void limitsAreSane() {
        assertThatThrownBy(() -> new Limit(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Limit(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Limit.defaultBurst(600)).isEqualTo(100);
        assertThat(Limit.defaultBurst(3)).isEqualTo(1);
        assertThat(new Limit(1, Long.MAX_VALUE / 2).nanosToRefill()).isPositive();
    }
}
