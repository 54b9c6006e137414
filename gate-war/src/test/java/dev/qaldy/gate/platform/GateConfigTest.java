package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GateConfigTest {

    @Test
    void originsLoseTheirTrailingSlash() {
        assertThat(GateConfig.origin("p", "http://localhost:8080/").toString()).isEqualTo("http://localhost:8080");
        assertThat(GateConfig.origin("p", " https://qaldy.example.com ").getHost()).isEqualTo("qaldy.example.com");
    }

    @Test
    void aBadUrlStopsTheGate() {
        assertThatThrownBy(() -> GateConfig.origin("qaldy.control.url", "localhost:8081")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("qaldy.control.url");
        assertThatThrownBy(() -> GateConfig.origin("p", "ftp://x")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> GateConfig.origin("p", "http://exa mple")).isInstanceOf(IllegalStateException.class);
    }
}
