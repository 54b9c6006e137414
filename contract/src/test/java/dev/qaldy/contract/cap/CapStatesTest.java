package dev.qaldy.contract.cap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class CapStatesTest {

    static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");
    final KeyPair cell = CellKeys.generate();
    final KeyPair other = CellKeys.generate();
    final CapState state = new CapState(7, "2026-03", 500, 1234, NOW.toEpochMilli() - 1000, new Prices(50, 2),
            NOW.toEpochMilli(), 42);

    String signed(CapState s, KeyPair keys) {
        return CapStates.sign(s, CellKeys.signing(keys));
    }

    @Test
    void a_state_signed_by_the_cell_verifies_and_reads_back_whole() throws Exception {
        assertThat(CapStates.verify(signed(state, cell), CellKeys.published(cell))).isEqualTo(state);
    }

    @Test
    void a_state_signed_by_another_key_is_refused() {
        String foreign = signed(state, other);
        assertThatThrownBy(() -> CapStates.verify(foreign, CellKeys.published(cell)))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void a_state_whose_claims_were_changed_is_refused() {
        String jws = signed(state, cell);
        String[] parts = jws.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"capCents\":500", "\"capCents\":999999");
        assertThat(claims).contains("999999");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThatThrownBy(() -> CapStates.verify(forged, CellKeys.published(cell)))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("signature");
    }

    @Test
    void sessions_and_seals_are_not_cap_states_and_a_cap_state_is_not_a_session() {
        String session = SessionTokens.sign(new Session(7, "a@example.com", "t", NOW, NOW.plusSeconds(60)),
                CellKeys.signing(cell));
        String seal = BundleSeals.sign(new BundleSeal("guestbook", 1, "a".repeat(64), NOW), CellKeys.signing(cell));
        for (String notACap : new String[] {session, seal}) {
            assertThatThrownBy(() -> CapStates.verify(notACap, CellKeys.published(cell)))
                    .isInstanceOf(InvalidTokenException.class);
        }
        String cap = signed(state, cell);
        assertThatThrownBy(() -> SessionTokens.verify(cap, CellKeys.published(cell), Clock.fixed(NOW, ZoneOffset.UTC)))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void garbage_and_oversized_input_is_refused_without_work() {
        for (String bad : new String[] {null, "", "a.b.c", "eyJ.eyJ.x", "x".repeat(CapStates.MAX_LENGTH + 1)}) {
            assertThatThrownBy(() -> CapStates.verify(bad, CellKeys.published(cell)))
                    .isInstanceOf(InvalidTokenException.class);
        }
    }

    @Test
    void the_state_keeps_its_own_invariants() {
        Prices prices = new Prices(1, 1);
        assertThatThrownBy(() -> new CapState(0, "2026-03", 1, 0, 0, prices, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapState(1, "2026-13", 1, 0, 0, prices, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapState(1, "2026-3", 1, 0, 0, prices, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapState(1, "2026-03", -1, 0, 0, prices, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapState(1, "2026-03", 1, -1, 0, prices, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapState(1, "2026-03", 1, 0, 0, prices, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Prices(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void periods_are_utc_months_and_the_cap_is_reached_at_spent_plus_local_at_least_the_cap() {
        assertThat(CapState.periodOf(Instant.parse("2026-03-31T23:59:59Z"))).isEqualTo("2026-03");
        assertThat(CapState.periodOf(Instant.parse("2026-04-01T00:00:00Z"))).isEqualTo("2026-04");
        assertThat(CapState.periodEnd("2026-12")).isEqualTo(Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(CapState.periodStart("2026-02")).isEqualTo(Instant.parse("2026-02-01T00:00:00Z"));
        CapState oneCent = new CapState(7, "2026-03", 1, 600, 0, new Prices(50, 0), 0, 1);
        assertThat(oneCent.reached(350)).isFalse();
        assertThat(oneCent.reached(400)).isTrue();
        assertThat(new CapState(7, "2026-03", 0, 0, 0, new Prices(50, 0), 0, 1).reached(0)).as("a cap of 0 allows nothing").isTrue();
        assertThat(new Prices(Long.MAX_VALUE / 2, 3).cost(3, Long.MAX_VALUE)).as("saturates, never wraps").isEqualTo(Long.MAX_VALUE);
        assertThat(new Prices(50, 2).cost(20, 10)).isEqualTo(1020);
    }
}
