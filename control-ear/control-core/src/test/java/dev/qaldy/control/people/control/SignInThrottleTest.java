package dev.qaldy.control.people.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final Duration WINDOW = Duration.ofMinutes(15);

    static long minutesAgo(int minutes) {
        return NOW.minus(Duration.ofMinutes(minutes)).toEpochMilli();
    }

    @Test
    void fewer_than_five_failures_in_the_window_allow_another_attempt() {
        assertThat(SignInThrottle.retryAfterSeconds(List.of(), 5, WINDOW, NOW)).isNull();
        assertThat(SignInThrottle.retryAfterSeconds(List.of(minutesAgo(4), minutesAgo(3), minutesAgo(2), minutesAgo(1)),
                5, WINDOW, NOW)).isNull();
    }

    @Test
    void the_fifth_failure_makes_the_caller_wait_until_the_oldest_leaves_the_window() {
        List<Long> five = List.of(minutesAgo(10), minutesAgo(3), minutesAgo(2), minutesAgo(1), minutesAgo(0));
        assertThat(SignInThrottle.retryAfterSeconds(five, 5, WINDOW, NOW)).isEqualTo(5 * 60);
    }

    @Test
    void with_more_than_five_the_caller_waits_until_fewer_than_five_remain() {
        List<Long> six = List.of(minutesAgo(14), minutesAgo(12), minutesAgo(3), minutesAgo(2), minutesAgo(1), minutesAgo(0));
        assertThat(SignInThrottle.retryAfterSeconds(six, 5, WINDOW, NOW)).isEqualTo(3 * 60);
    }

    @Test
    void the_wait_is_at_least_one_second() {
        List<Long> five = List.of(NOW.minus(WINDOW).plusMillis(1).toEpochMilli(), minutesAgo(0), minutesAgo(0),
                minutesAgo(0), minutesAgo(0));
        assertThat(SignInThrottle.retryAfterSeconds(five, 5, WINDOW, NOW)).isEqualTo(1);
    }
}
