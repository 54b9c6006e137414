package dev.qaldy.control.webhooks.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The HMAC-SHA256 signature rule of webhooks. */
class HookSignatureTest {

    static final String SECRET = "It's a Secret to Everybody";
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.UTF_8);

    @Test
    void a_known_vector_matches() {
        // GitHub's documented example for X-Hub-Signature-256: same scheme, same value.
        String expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        assertThat(HookSignature.sign(SECRET, BODY)).isEqualTo(expected);
        assertThat(HookSignature.matches(SECRET, BODY, expected)).isTrue();
        assertThat(HookSignature.matches(SECRET, BODY, expected.toUpperCase().replace("SHA256=", "sha256="))).isTrue();
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
        "null",
        "''",
        "sha256=",
        "sha1=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
        "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e18",
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e1",
        "sha256=zz7107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"})
    void anything_else_is_refused(String header) {
        assertThat(HookSignature.matches(SECRET, BODY, header)).isFalse();
    }

    @Test
    void another_secret_or_body_does_not_match() {
        String signature = HookSignature.sign(SECRET, BODY);
        assertThat(HookSignature.matches("another secret", BODY, signature)).isFalse();
        assertThat(HookSignature.matches(SECRET, "Hello, World?".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
    }

    @Test
    void new_secrets_are_long_and_different() {
        assertThat(HookSignature.newSecret()).hasSize(43).isNotEqualTo(HookSignature.newSecret());
    }
}
