package dev.qaldy.drill.cast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The drill's waits against the real clock. */
class CastPauseTest {

    @Test
    void an_instant_already_passed_or_passing_now_returns_at_once_and_never_sleeps_a_negative_time() {
        for (int i = 0; i < 500; i++) { // the instant passes while the loop reads the clock, as a schedule's tick did in CI
            Cast.pauseUntil(Instant.now().plusNanos(200_000));
        }
        Instant before = Instant.now();
        Cast.pauseUntil(before.minusSeconds(5));
        assertThat(Duration.between(before, Instant.now())).isLessThan(Duration.ofMillis(100));
    }

    @Test
    void an_instant_ahead_is_waited_for() {
        Instant until = Instant.now().plusMillis(120);
        Cast.pauseUntil(until);
        assertThat(Instant.now()).isAfterOrEqualTo(until);
    }
}
