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

    @Test
    void theInternalPortIsATcpPort() {
        assertThat(GateConfig.port("qaldy.gate.internal-port", " 8083 ")).isEqualTo(8083);
        assertThat(GateConfig.port("p", "65535")).isEqualTo(65_535);
        for (String bad : new String[] {"0", "65536", "-1", "http://127.0.0.1:8083", "", null}) {
            assertThatThrownBy(() -> GateConfig.port("qaldy.gate.internal-port", bad)).as(String.valueOf(bad))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("qaldy.gate.internal-port must be a TCP port");
        }
    }
}
