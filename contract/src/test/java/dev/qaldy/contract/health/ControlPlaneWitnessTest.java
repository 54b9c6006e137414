package dev.qaldy.contract.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.cap.MovableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The rule that tells a gate cut off alone from a whole-cell outage, and the witness's answer both ways. */
class ControlPlaneWitnessTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // case, outage age, witness answered ago, gate answered ago (ms), cut off alone
        "the API died: the last answer to the witness is older than the outage of the gate, 5000, 5200, 5300, false",
        "the API hung: its last answer to the witness came before the call of the gate timed out, 3000, 3400, 5000, false",
        "an answer in flight when it stopped: within the margin, 3000, 2500, 5000, false",
        "a partition: the witness heard the API since the gate lost it, 6000, 300, 9000, true",
        "a partition seen by a gate that never reached the API, 6000, 300, -1, true",
        "the witness never reached the API either, 6000, -1, 9000, false",
        "the own probe of the gate answered since: only a failed call and no partition, 6000, 300, 200, false",
    })
    void a_gate_is_cut_off_alone_only_when_the_witness_heard_the_api_since_the_gate_lost_it(String name, long outageAge,
            long witnessAgo, long ownAgo, boolean alone) {
        assertThat(ControlPlaneWitness.cutOffAlone(outageAge, witnessAgo, ownAgo)).isEqualTo(alone);
    }

    @Test
    void the_answer_says_the_view_and_how_long_ago_the_api_answered_and_reads_back() throws IOException {
        MovableClock clock = new MovableClock(UpstreamHealthTest.START);
        UpstreamHealth view = new UpstreamHealth("control plane", clock, UpstreamHealthTest.INTERVAL, () -> { },
                UpstreamHealthTest.LOG);
        String never = ControlPlaneWitness.answer(view);
        assertThat(never).isEqualTo("{\"state\":\"UP\",\"answeredMsAgo\":-1}");
        view.call().answered();
        clock.move(Duration.ofMillis(750));
        String answer = ControlPlaneWitness.answer(view);
        assertThat(ControlPlaneWitness.answeredMsAgo(answer.getBytes(StandardCharsets.UTF_8))).isEqualTo(750);
        assertThat(ControlPlaneWitness.answeredMsAgo(never.getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    }

    @Test
    void anything_else_is_refused() {
        for (String body : new String[] {"", "[]", "{}", "{\"answeredMsAgo\":\"5\"}", "{\"answeredMsAgo\":1.5}", "{\"answeredMsAgo\":-2}"}) {
            assertThatThrownBy(() -> ControlPlaneWitness.answeredMsAgo(body.getBytes(StandardCharsets.UTF_8)))
                    .as(body).isInstanceOf(IOException.class);
        }
    }
}
