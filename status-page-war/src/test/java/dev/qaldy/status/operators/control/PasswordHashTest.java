package dev.qaldy.status.operators.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.glassfish.soteria.identitystores.hash.Pbkdf2PasswordHashImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Jakarta Security's PBKDF2 hashes with the cell's parameters: verify the right password only, refuse malformed hashes. */
class PasswordHashTest {

    private static final int FAST = 1_024; // the least Jakarta Security takes
    private final PasswordHash hasher = new PasswordHash(new Pbkdf2PasswordHashImpl(), FAST);

    @Test
    void theRightPasswordMatchesAndOthersDoNot() {
        String hash = hasher.hash("correct horse".toCharArray());

        assertThat(hash).startsWith("PBKDF2WithHmacSHA512:1024:");
        assertThat(PasswordHash.isEncoded(hash)).isTrue();
        assertThat(hasher.verify("correct horse".toCharArray(), hash)).isTrue();
        assertThat(hasher.verify("correct horse ".toCharArray(), hash)).isFalse();
        assertThat(hasher.verify("".toCharArray(), hash)).isFalse();
    }

    @Test
    void everyHashHasItsOwnSalt() {
        assertThat(hasher.hash("same".toCharArray())).isNotEqualTo(hasher.hash("same".toCharArray()));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"", "secret", "PBKDF2WithHmacSHA512:", "PBKDF2WithHmacSHA512:x:AAAA:AAAA",
            "PBKDF2WithHmacSHA512:0:AAAA:AAAA", "PBKDF2WithHmacSHA512:1000:!!!:AAAA", "PBKDF2WithHmacSHA512:1000:AAAA:",
            "PBKDF2WithHmacSHA1:1000:AAAA:AAAA", "pbkdf2-sha256$1000$AAAA$AAAA", "PBKDF2WithHmacSHA512:1000:AAAA:AAAA:AAAA"})
    void malformedHashesNeverMatch(String encoded) {
        assertThat(hasher.verify("secret".toCharArray(), encoded)).isFalse();
    }

    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @CsvSource(nullValues = "null", value = {"abc, abc, true", "abc, abd, false", "abc, ab, false", "abc, null, false",
            "null, abc, false", "'', '', true"})
    void sameText(String a, String b, boolean same) {
        assertThat(PasswordHash.sameText(a, b)).isEqualTo(same);
    }
}
