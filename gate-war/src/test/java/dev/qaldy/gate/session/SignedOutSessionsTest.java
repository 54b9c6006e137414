package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.access.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The gate's list of signed-out tokens: kept until each token's expiry, bounded in size. */
class SignedOutSessionsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final MovableClock clock = new MovableClock(T0);
    private final SignedOutSessions signedOut = new SignedOutSessions(clock, 100);

    @Test
    void aSignedOutTokenIsListedUntilItsExpiryAndNotAMomentLonger() {
        signedOut.add("t-1", T0.plus(Duration.ofHours(12)));
        assertThat(signedOut.contains("t-1")).isTrue();
        assertThat(signedOut.contains("t-2")).isFalse();
        assertThat(signedOut.contains(null)).isFalse();
        clock.set(T0.plus(Duration.ofHours(12)).minusMillis(1));
        assertThat(signedOut.contains("t-1")).isTrue();
        clock.set(T0.plus(Duration.ofHours(12)));
        assertThat(signedOut.contains("t-1")).isFalse();
        assertThat(signedOut.size()).isZero();
    }

    @Test
    void aTokenAlreadyExpiredIsNotKept() {
        signedOut.add("old", T0);
        signedOut.add("older", T0.minusSeconds(60));
        assertThat(signedOut.contains("old")).isFalse();
        assertThat(signedOut.size()).isZero();
    }

    @Test
    void aSecondPushNeverShortensTheListing() {
        signedOut.add("t-1", T0.plus(Duration.ofHours(2)));
        signedOut.add("t-1", T0.plus(Duration.ofHours(1)));
        clock.set(T0.plus(Duration.ofMinutes(90)));
        assertThat(signedOut.contains("t-1")).isTrue();
        clock.set(T0.plus(Duration.ofHours(2)));
        assertThat(signedOut.contains("t-1")).isFalse();
    }

    @Test
    void theListIsBounded() {
        SignedOutSessions few = new SignedOutSessions(clock, 5);
        for (int i = 0; i < 50; i++) {
            few.add("t-" + i, T0.plus(Duration.ofHours(1)));
        }
        assertThat(few.size()).isLessThanOrEqualTo(5);
        long listed = java.util.stream.IntStream.range(0, 50).filter(i -> few.contains("t-" + i)).count();
        assertThat(listed).isBetween(1L, 5L);
    }

    @Test
    void aNewListIsNotLoadedUntilMarkedAndThenStaysLoaded() {
        assertThat(signedOut.loaded()).isFalse();
        signedOut.add("t-1", T0.plusSeconds(60));
        assertThat(signedOut.loaded()).as("a push alone is not the load").isFalse();
        signedOut.markLoaded();
        assertThat(signedOut.loaded()).isTrue();
        clock.set(T0.plus(Duration.ofDays(1)));
        assertThat(signedOut.loaded()).isTrue();
    }
}
