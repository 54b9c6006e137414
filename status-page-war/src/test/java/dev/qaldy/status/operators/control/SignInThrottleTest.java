package dev.qaldy.status.operators.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.platform.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Five failures in five minutes lock one address out for a minute; a success forgets the failures. */
class SignInThrottleTest {

    private final MovableClock clock = new MovableClock(Instant.parse("2025-04-01T10:00:00Z"));
    private final SignInThrottle throttle = new SignInThrottle(clock);

    @Test
    void fiveFailuresLockTheAddressForAMinute() {
        for (int i = 0; i < 4; i++) {
            throttle.failed("10.0.0.1");
            assertThat(throttle.secondsLocked("10.0.0.1")).isZero();
        }
        throttle.failed("10.0.0.1");

        assertThat(throttle.secondsLocked("10.0.0.1")).isEqualTo(60);
        assertThat(throttle.secondsLocked("10.0.0.2")).isZero();
        clock.move(Duration.ofSeconds(59));
        assertThat(throttle.secondsLocked("10.0.0.1")).isEqualTo(1);
        clock.move(Duration.ofSeconds(1));
        assertThat(throttle.secondsLocked("10.0.0.1")).isZero();
    }

    @Test
    void failuresOlderThanTheWindowDoNotCount() {
        for (int i = 0; i < 4; i++) {
            throttle.failed("10.0.0.1");
        }
        clock.move(Duration.ofMinutes(6));
        throttle.failed("10.0.0.1");

        assertThat(throttle.secondsLocked("10.0.0.1")).isZero();
    }

    @Test
    void aSuccessForgetsTheFailures() {
        for (int i = 0; i < 4; i++) {
            throttle.failed("10.0.0.1");
        }
        throttle.succeeded("10.0.0.1");
        throttle.failed("10.0.0.1");

        assertThat(throttle.secondsLocked("10.0.0.1")).isZero();
    }
}
