package dev.qaldy.control.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressTest {

    @Test
    void the_right_most_forwarded_entry_is_the_one_the_gate_wrote() {
        assertThat(ClientAddress.lastForwarded(List.of("203.0.113.9, 198.51.100.1"), "127.0.0.1")).isEqualTo("198.51.100.1");
        assertThat(ClientAddress.lastForwarded(List.of("10.0.0.1", "198.51.100.2 ,"), "127.0.0.1")).isEqualTo("198.51.100.2");
    }

    @Test
    void without_a_forwarded_entry_the_peer_is_the_client() {
        assertThat(ClientAddress.lastForwarded(List.of(), "127.0.0.1")).isEqualTo("127.0.0.1");
        assertThat(ClientAddress.lastForwarded(List.of(" , "), "127.0.0.1")).isEqualTo("127.0.0.1");
    }

    @Test
    void addresses_are_bounded() {
        assertThat(ClientAddress.bounded("x".repeat(500))).hasSize(ClientAddress.MAX_LENGTH);
    }
}
