package dev.qaldy.status.operators.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** PBKDF2 hashes: verify the right password only, refuse malformed hashes. */
class PasswordHashTest {

    private static final int FAST = 1_000;

    @Test
    void theRightPasswordMatchesAndOthersDoNot() {
        String hash = PasswordHash.hash("correct horse".toCharArray(), FAST);

        assertThat(hash).startsWith("pbkdf2-sha256$1000$");
        assertThat(PasswordHash.isEncoded(hash)).isTrue();
        assertThat(PasswordHash.verify("correct horse".toCharArray(), hash)).isTrue();
        assertThat(PasswordHash.verify("correct horse ".toCharArray(), hash)).isFalse();
        assertThat(PasswordHash.verify("".toCharArray(), hash)).isFalse();
    }

    @Test
    void everyHashHasItsOwnSalt() {
        assertThat(PasswordHash.hash("same".toCharArray(), FAST)).isNotEqualTo(PasswordHash.hash("same".toCharArray(), FAST));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"", "secret", "pbkdf2-sha256$", "pbkdf2-sha256$x$AAAA$AAAA", "pbkdf2-sha256$0$AAAA$AAAA",
            "pbkdf2-sha256$1000$!!!$AAAA", "pbkdf2-sha256$1000$AAAA$", "sha1$1000$AAAA$AAAA"})
    void malformedHashesNeverMatch(String encoded) {
        assertThat(PasswordHash.verify("secret".toCharArray(), encoded)).isFalse();
    }

    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @CsvSource(nullValues = "null", value = {"abc, abc, true", "abc, abd, false", "abc, ab, false", "abc, null, false",
            "null, abc, false", "'', '', true"})
    void sameText(String a, String b, boolean same) {
        assertThat(PasswordHash.sameText(a, b)).isEqualTo(same);
    }
}
