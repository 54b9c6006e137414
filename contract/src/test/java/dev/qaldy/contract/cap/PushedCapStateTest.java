package dev.qaldy.contract.cap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.keys.CellKeys;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The answer the gate and the runtime host give to a pushed cap state. */
class PushedCapStateTest {

    final MovableClock clock = new MovableClock(CapKeeperTest.NOW);
    final CapKeeper keeper = new CapKeeper(CellKeys.published(CapKeeperTest.CELL), clock, CapKeeperTest.LEEWAY, null,
            Logger.getAnonymousLogger(), 1000);

    static PushedCapState push(CapKeeper keeper, String body, String holder) throws IOException {
        return PushedCapState.offer(keeper, new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)), holder);
    }

    @Test
    void a_newer_state_is_accepted_and_the_same_one_again_already_held() throws IOException {
        String jws = CapKeeperTest.sign(CapKeeperTest.state(11, "2026-03", 100, 41_000, CapKeeperTest.NOW));
        PushedCapState first = push(keeper, jws + "\n", "gate");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.json()).isEqualTo("{\"result\":\"accepted\",\"sequence\":11}");
        assertThat(push(keeper, jws, "gate").json()).isEqualTo("{\"result\":\"already-held\",\"sequence\":11}");
    }

    @Test
    void an_older_state_is_a_conflict_named_by_its_refusal() throws IOException {
        push(keeper, CapKeeperTest.sign(CapKeeperTest.state(11, "2026-03", 100, 41_000, CapKeeperTest.NOW)), "runtime host");
        PushedCapState refused = push(keeper, CapKeeperTest.sign(CapKeeperTest.state(9, "2026-03", 500, 0, CapKeeperTest.NOW)),
                "runtime host");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json()).isNull();
        assertThat(refused.refusal()).isEqualTo(CapKeeper.Refusal.OLDER_SEQUENCE.slug());
        assertThat(refused.type()).isEqualTo("cap-state-refused");
        assertThat(refused.title()).isEqualTo("Cap state refused");
        assertThat(refused.detail()).isEqualTo("The runtime host refused this cap state (" + refused.refusal()
                + ") and keeps the one it holds.");
    }

    @Test
    void a_body_longer_than_a_cap_state_is_a_bad_request_never_offered() throws IOException {
        PushedCapState answer = push(null, "x".repeat(CapStates.MAX_LENGTH + 1), "gate");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.refusal()).isNull();
        assertThat(answer.type()).isEqualTo("bad-request");
        assertThat(answer.title()).isEqualTo("Bad request");
        assertThat(answer.detail()).contains(Integer.toString(CapStates.MAX_LENGTH));
    }
}
