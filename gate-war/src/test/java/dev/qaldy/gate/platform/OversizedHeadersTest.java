package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OversizedHeadersTest {

    @Test
    void grizzlysSizeRefusalsGetTheStatusThatSaysWhy() {
        assertThat(OversizedHeaders.statusFor("HTTP packet header is too large")).isEqualTo(431);
        assertThat(OversizedHeaders.statusFor("HTTP packet intial line is too large")).isEqualTo(414);
        assertThat(OversizedHeaders.statusFor("Invalid chunk starting at byte [0]")).as("other errors: left alone").isZero();
        assertThat(OversizedHeaders.statusFor(null)).isZero();
    }
}
