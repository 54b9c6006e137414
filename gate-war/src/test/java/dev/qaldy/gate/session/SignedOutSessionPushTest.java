package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SignedOutSessionPushTest {

    private static SignedOutSessionPush.Push read(String body) throws IOException {
        return SignedOutSessionPush.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsAPush() throws IOException {
        assertThat(read("{\"tokenId\":\"8d7c1f2e-0000-4000-8000-000000000001\",\"expiresAt\":1772402400000}"))
                .isEqualTo(new SignedOutSessionPush.Push("8d7c1f2e-0000-4000-8000-000000000001",
                        Instant.parse("2026-03-01T22:00:00Z")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "null", "[]", "{}", "not json", "{\"tokenId\":\"t\"}", "{\"expiresAt\":1}",
        "{\"tokenId\":\"\",\"expiresAt\":1}", "{\"tokenId\":7,\"expiresAt\":1}", "{\"tokenId\":\"t\",\"expiresAt\":\"1\"}",
        "{\"tokenId\":\"t\",\"expiresAt\":1.5}", "{\"tokenId\":\"t\",\"expiresAt\":-1}",
        "{\"tokenId\":\"t\",\"expiresAt\":99999999999999999999}"})
    void refusesWhatItCannotRead(String body) throws IOException {
        assertThat(read(body)).isNull();
    }

    @Test
    void refusesALongTokenIdAndALongBody() throws IOException {
        String id = "x".repeat(SignedOutSessionPush.MAX_TOKEN_ID_LENGTH + 1);
        assertThat(read("{\"tokenId\":\"" + id + "\",\"expiresAt\":1}")).isNull();
        assertThat(read("{\"tokenId\":\"t\",\"expiresAt\":1}" + " ".repeat(4096))).isNull();
    }
}
