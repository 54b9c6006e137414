package dev.qaldy.status.operators.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.operators.control.OperatorSessions.OperatorSession;
import dev.qaldy.status.platform.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Sessions: random tokens, idle and absolute expiry on a moved clock, a bound, CSRF tokens. */
class OperatorSessionsTest {

    private final MovableClock clock = new MovableClock(Instant.parse("2025-04-01T10:00:00Z"));
    private final OperatorSessions sessions = new OperatorSessions(clock, Duration.ofMinutes(30), Duration.ofHours(12));

    @Test
    void aSessionIsFoundByItsTokenOnly() {
        OperatorSession session = sessions.open("operator");

        assertThat(session.token()).hasSize(43).isNotEqualTo(session.csrfToken());
        assertThat(sessions.find(session.token())).map(OperatorSession::user).contains("operator");
        assertThat(sessions.find(session.token() + "x")).isEmpty();
        assertThat(sessions.find("")).isEmpty();
        assertThat(sessions.find(null)).isEmpty();
    }

    @Test
    void idleSessionsEndAfterThirtyMinutesAndBusyOnesAfterTwelveHours() {
        OperatorSession idle = sessions.open("operator");
        OperatorSession busy = sessions.open("operator");

        for (int i = 0; i < 24; i++) {
            clock.move(Duration.ofMinutes(29));
            assertThat(sessions.find(busy.token())).as("after %d × 29 min", i + 1).isPresent();
        }
        assertThat(sessions.find(idle.token())).isEmpty();

        clock.move(Duration.ofMinutes(29));   // 12 h 25 min after sign-in
        assertThat(sessions.find(busy.token())).isEmpty();
    }

    @Test
    void signOutEndsTheSession() {
        OperatorSession session = sessions.open("operator");

        sessions.close(session.token());

        assertThat(sessions.find(session.token())).isEmpty();
    }

    @Test
    void atMostThirtyTwoSessionsTheLeastRecentlyUsedGoesFirst() {
        OperatorSession first = sessions.open("operator");
        OperatorSession second = sessions.open("operator");
        sessions.find(first.token());    // used: now the second is the least recently used
        Set<String> tokens = new HashSet<>();
        for (int i = 0; i < OperatorSessions.MAX_SESSIONS - 1; i++) {
            tokens.add(sessions.open("operator").token());
        }

        assertThat(sessions.size()).isEqualTo(OperatorSessions.MAX_SESSIONS);
        assertThat(sessions.find(first.token())).isPresent();
        assertThat(sessions.find(second.token())).isEmpty();
        assertThat(tokens).hasSize(OperatorSessions.MAX_SESSIONS - 1);
    }

    @Test
    void csrfTokenMustMatchExactly() {
        OperatorSession session = sessions.open("operator");

        assertThat(session.csrfMatches(session.csrfToken())).isTrue();
        assertThat(session.csrfMatches(session.csrfToken().substring(1))).isFalse();
        assertThat(session.csrfMatches(sessions.open("operator").csrfToken())).isFalse();
        assertThat(session.csrfMatches(null)).isFalse();
        assertThat(session.csrfMatches("")).isFalse();
    }
}
