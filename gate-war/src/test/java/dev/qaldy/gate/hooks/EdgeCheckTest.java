package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookMaterial;
import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.hooks.HookSignature;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The gate's own check of a delivery while the API cannot be asked. */
class EdgeCheckTest {

    static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);
    static final Duration TOLERANCE = Duration.ofMinutes(5);
    static final byte[] BODY = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    static final Optional<HookMaterial> HOOK = Optional.of(new HookMaterial("memo", "a", 1, "ping", List.of("new", "old"), 0, Long.MAX_VALUE, 7, false));

    @Test
    void signed_right_with_any_secret_in_force_is_queued() {
        assertThat(EdgeCheck.decide(HOOK, BODY, HookSignature.sign("old", NOW.getEpochSecond(), BODY), NOW, TOLERANCE).outcome())
                .isEqualTo(EdgeCheck.Outcome.QUEUE);
    }

    @Test
    void signed_wrong_or_too_old_is_refused_as_the_api_would() {
        EdgeCheck.Decision wrong = EdgeCheck.decide(HOOK, BODY, HookSignature.sign("other", NOW.getEpochSecond(), BODY), NOW, TOLERANCE);
        assertThat(wrong).isEqualTo(new EdgeCheck.Decision(EdgeCheck.Outcome.REFUSE, HookSignature.Verdict.WRONG));
        EdgeCheck.Decision old = EdgeCheck.decide(HOOK, BODY, HookSignature.sign("new", NOW.getEpochSecond() - 301, BODY), NOW, TOLERANCE);
        assertThat(old).isEqualTo(new EdgeCheck.Decision(EdgeCheck.Outcome.REFUSE, HookSignature.Verdict.TOO_OLD));
        assertThat(EdgeCheck.decide(HOOK, BODY, null, NOW, TOLERANCE).verdict()).isEqualTo(HookSignature.Verdict.MISSING);
    }

    @Test
    void a_rolled_over_secret_is_refused_from_its_end_on_without_a_change_from_the_control_plane() {
        Optional<HookMaterial> rolled = Optional.of(new HookMaterial("memo", "a", 2, "ping", List.of("new", "old"), 0,
                NOW.toEpochMilli(), 7, false));
        String byOld = HookSignature.sign("old", NOW.getEpochSecond(), BODY);
        assertThat(EdgeCheck.decide(rolled, BODY, byOld, NOW.minusMillis(1), TOLERANCE).outcome()).isEqualTo(EdgeCheck.Outcome.QUEUE);
        assertThat(EdgeCheck.decide(rolled, BODY, byOld, NOW, TOLERANCE))
                .isEqualTo(new EdgeCheck.Decision(EdgeCheck.Outcome.REFUSE, HookSignature.Verdict.WRONG));
        assertThat(EdgeCheck.decide(rolled, BODY, HookSignature.sign("new", NOW.getEpochSecond(), BODY), NOW, TOLERANCE).outcome())
                .isEqualTo(EdgeCheck.Outcome.QUEUE);
    }

    @Test
    void a_hook_never_learned_is_unknown_however_it_is_signed() {
        assertThat(EdgeCheck.decide(Optional.empty(), BODY, HookSignature.sign("new", NOW.getEpochSecond(), BODY), NOW, TOLERANCE)
                .outcome()).isEqualTo(EdgeCheck.Outcome.UNKNOWN);
    }
}
