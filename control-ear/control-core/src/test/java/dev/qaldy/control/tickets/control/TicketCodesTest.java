package dev.qaldy.control.tickets.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TicketCodesTest {

    @Test
    void tickets_carry_256_random_bits_and_are_url_safe() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String ticket = TicketCodes.newTicket();
            assertThat(ticket).matches("[A-Za-z0-9_-]{43}");
            assertThat(Base64.getUrlDecoder().decode(ticket)).hasSize(32);
            assertThat(seen.add(ticket)).isTrue();
        }
    }

    @Test
    void only_the_hash_is_stored() {
        assertThat(TicketCodes.hash("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/path", "/a/b?x=1&y=2#top", "/%2F%2Fevil"})
    void return_paths_stay_on_the_origin(String path) {
        assertThat(TicketCodes.checkReturnPath(path)).isEqualTo(path);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "path", "//evil.example", "/\\evil.example", "https://evil.example/", "/a b", "/a\tb"})
    void other_origins_and_odd_paths_are_refused(String path) {
        assertThatThrownBy(() -> TicketCodes.checkReturnPath(path)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("returnPath");
    }
}
