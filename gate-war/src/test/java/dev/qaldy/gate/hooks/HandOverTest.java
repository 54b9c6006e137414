package dev.qaldy.gate.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which answers of the control plane let a queued delivery leave the queue without a run. */
class HandOverTest {

    @ParameterizedTest
    @CsvSource({"400, true", "409, true", "410, true", "413, true", "404, false", "403, false", "429, false", "500, false"})
    void refused_for_good(int status, boolean forGood) {
        assertThat(HandOver.refusedForGood(status, "{}")).isEqualTo(forGood);
    }

    @Test
    void a_401_is_for_good_only_for_the_signature_never_for_the_gates_credential() {
        assertThat(HandOver.refusedForGood(401, "{\"type\":\"urn:qaldy:problem:bad-signature\"}")).isTrue();
        assertThat(HandOver.refusedForGood(401, "{\"type\":\"urn:qaldy:problem:unauthorized\"}")).isFalse();
    }
}
