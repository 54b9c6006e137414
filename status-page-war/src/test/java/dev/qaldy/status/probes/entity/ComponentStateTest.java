package dev.qaldy.status.probes.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** "Since": carried over while the health stays the same and the data has no gap. */
class ComponentStateTest {

    private static final Duration STALE = Duration.ofSeconds(30);

    private static ProbeResult probe(Health health) {
        return new ProbeResult("local.control", health, health == Health.UP ? Reason.READY : Reason.NO_ANSWER, 12L, "x");
    }

    @Test
    void firstProbeStartsARun() {
        ComponentState state = ComponentState.first(probe(Health.DOWN), 1_000);

        assertThat(state.sinceMs()).isEqualTo(1_000);
        assertThat(state.lastProbeMs()).isEqualTo(1_000);
        assertThat(state.health()).isEqualTo(Health.DOWN);
    }

    @Test
    void sameHealthKeepsSinceAndMovesTheLastProbe() {
        ComponentState state = ComponentState.first(probe(Health.DOWN), 1_000).next(probe(Health.DOWN), 6_000, STALE);

        assertThat(state.sinceMs()).isEqualTo(1_000);
        assertThat(state.lastProbeMs()).isEqualTo(6_000);
        assertThat(state.changedFrom(ComponentState.first(probe(Health.DOWN), 1_000))).isFalse();
    }

    @Test
    void anotherHealthStartsANewRun() {
        ComponentState down = ComponentState.first(probe(Health.DOWN), 1_000);
        ComponentState up = down.next(probe(Health.UP), 6_000, STALE);

        assertThat(up.sinceMs()).isEqualTo(6_000);
        assertThat(up.health()).isEqualTo(Health.UP);
        assertThat(up.reason()).isEqualTo(Reason.READY);
        assertThat(up.changedFrom(down)).isTrue();
    }

    @Test
    void aGapInTheStatusPagesOwnDataStartsANewRun() {
        ComponentState down = ComponentState.first(probe(Health.DOWN), 1_000);

        assertThat(down.next(probe(Health.DOWN), 31_000, STALE).sinceMs()).isEqualTo(1_000);
        assertThat(down.next(probe(Health.DOWN), 31_001, STALE).sinceMs()).isEqualTo(31_001);
    }

    @Test
    void freshUntilStaleAfter() {
        ComponentState state = ComponentState.first(probe(Health.UP), 1_000);

        assertThat(state.fresh(31_000, STALE)).isTrue();
        assertThat(state.fresh(31_001, STALE)).isFalse();
    }

    @Test
    void longDetailsAreCut() {
        ProbeResult result = new ProbeResult("a.b", Health.DOWN, Reason.NOT_READY, null, "x".repeat(600));

        assertThat(result.detail()).hasSize(ProbeResult.MAX_DETAIL);
    }
}
