package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedeemedTicketTest {

    @Test
    void readsTheTokenAndExpiry() throws Exception {
        assertThat(RedeemedTicket.read(200, "{\"token\":\"a.b.c\",\"expiresAt\":\"2025-06-01T13:00:00Z\"}"))
                .contains(new RedeemedTicket("a.b.c", Instant.parse("2025-06-01T13:00:00Z")));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 409, 410})
    void aRefusedTicketIsEmpty(int status) throws Exception {
        assertThat(RedeemedTicket.read(status, "{\"title\":\"no\"}")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504})
    void a5xxIsAControlPlaneFailure(int status) {
        assertThatThrownBy(() -> RedeemedTicket.read(status, "")).isInstanceOf(ControlPlaneUnavailable.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "{}", "{\"token\":\"a\"}", "{\"token\":\"a\",\"expiresAt\":\"tomorrow\"}", "[]"})
    void anUnreadableAnswerIsNotASession(String body) {
        assertThatThrownBy(() -> RedeemedTicket.read(200, body)).isInstanceOf(IllegalStateException.class);
    }
}
