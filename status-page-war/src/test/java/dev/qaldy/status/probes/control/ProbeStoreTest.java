package dev.qaldy.status.probes.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.platform.Databases;
import dev.qaldy.status.platform.StatusDatabase;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.DayCount;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.ProbeRecord;
import dev.qaldy.status.probes.entity.ProbeResult;
import dev.qaldy.status.probes.entity.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Probe history in H2: raw probes, per-day counts, latest states, and pruning to bounds. */
class ProbeStoreTest {

    private static final long T0 = Instant.parse("2025-03-31T23:59:55Z").toEpochMilli();
    private static final Duration STALE = Duration.ofSeconds(30);

    private final StatusDatabase database = Databases.fresh();
    private final ProbeStore store = new ProbeStore(database);

    @AfterEach
    void close() {
        database.close();
    }

    private static ProbeResult result(String id, Health health) {
        return new ProbeResult(id, health, health == Health.UP ? Reason.READY : Reason.NO_ANSWER,
                health == Health.UP ? 7L : null, health + " detail");
    }

    /** One round through the same path as the prober: states advance, then everything is stored. */
    private void round(Map<String, ComponentState> current, long at, List<ProbeResult> results) {
        List<ComponentState> next = ComponentStates.advance(current, results, at, STALE);
        store.record(results, next, at);
    }

    @Test
    void roundsAreCountedPerUtcDayAndStatesKeepTheirSince() {
        round(Map.of(), T0 - 5_000, List.of(result("local.control", Health.UP)));
        round(store.loadStates(), T0, List.of(result("local.gate", Health.UP), result("local.control", Health.DOWN)));
        round(store.loadStates(), T0 + 5_000, List.of(result("local.gate", Health.UP), result("local.control", Health.DOWN)));
        round(store.loadStates(), T0 + 10_000, List.of(result("local.gate", Health.DOWN), result("local.control", Health.UNKNOWN)));

        long day = ProbeStore.epochDay(T0);
        assertThat(day).isEqualTo(java.time.LocalDate.of(2025, 3, 31).toEpochDay());
        assertThat(store.dayCounts(day)).containsExactly(
                new DayCount("local.control", day, 1, 1, 0),
                new DayCount("local.gate", day, 1, 0, 0),
                new DayCount("local.control", day + 1, 0, 1, 1),
                new DayCount("local.gate", day + 1, 1, 1, 0));
        assertThat(store.dayCounts(day + 1)).hasSize(2);

        Map<String, ComponentState> states = store.loadStates();
        assertThat(states.get("local.gate")).isEqualTo(
                new ComponentState("local.gate", Health.DOWN, Reason.NO_ANSWER, T0 + 10_000, T0 + 10_000, null, "DOWN detail"));
        assertThat(states.get("local.control").sinceMs()).isEqualTo(T0 + 10_000);
    }

    @Test
    void aComponentNeverUpIsStartingItsFailuresCountNoDowntimeAndItStaysStartingAcrossARestart() {
        round(Map.of(), T0, List.of(result("local.runtime", Health.DOWN)));
        round(store.loadStates(), T0 + 5_000, List.of(result("local.runtime", Health.DOWN)));
        assertThat(store.loadStates().get("local.runtime").starting()).as("kept for a restart of the status page").isTrue();
        round(store.loadStates(), T0 + 10_000, List.of(result("local.runtime", Health.UP)));
        round(store.loadStates(), T0 + 15_000, List.of(result("local.runtime", Health.DOWN)));

        long day = ProbeStore.epochDay(T0);
        assertThat(store.dayCounts(day)).containsExactly(
                new DayCount("local.runtime", day, 0, 0, 1),
                // starting at T0 + 5 s (the next UTC day) too; then up, then down: that is downtime
                new DayCount("local.runtime", day + 1, 1, 1, 1));
        assertThat(store.loadStates().get("local.runtime").starting()).isFalse();
        assertThat(store.probes("local.runtime", T0, 10)).extracting(ProbeRecord::health)
                .as("raw probes say what the probe found").containsExactly(Health.DOWN, Health.UP, Health.DOWN, Health.DOWN);
    }

    @Test
    void rawProbesAreListedNewestFirst() {
        round(Map.of(), T0, List.of(result("local.gate", Health.UP)));
        round(store.loadStates(), T0 + 5_000, List.of(result("local.gate", Health.DOWN)));

        assertThat(store.probes("local.gate", T0, 10)).containsExactly(
                new ProbeRecord("local.gate", Health.DOWN, null, T0 + 5_000, "DOWN detail"),
                new ProbeRecord("local.gate", Health.UP, 7L, T0, "UP detail"));
        assertThat(store.probes("local.gate", T0 + 1, 10)).hasSize(1);
        assertThat(store.probes("local.gate", T0, 1)).hasSize(1);
        assertThat(store.probes("local.control", T0, 10)).isEmpty();
    }

    @Test
    void pruneKeepsOnlyTheBoundedHistory() {
        long day = ProbeStore.epochDay(T0);
        round(Map.of(), T0 - Duration.ofDays(100).toMillis(), List.of(result("local.gate", Health.UP)));
        round(Map.of(), T0 - Duration.ofHours(25).toMillis(), List.of(result("local.gate", Health.UP)));
        round(Map.of(), T0, List.of(result("local.gate", Health.UP)));

        int deleted = store.prune(T0 - Duration.ofHours(24).toMillis(), day - 89);

        assertThat(deleted).isEqualTo(3);  // two raw probes, one day count
        assertThat(store.probes("local.gate", 0, 10)).extracting(ProbeRecord::atMs).containsExactly(T0);
        assertThat(store.dayCounts(0)).extracting(DayCount::epochDay).containsExactly(day - 1, day);
    }

    @Test
    void statesOfComponentsNoLongerWatchedAreForgotten() {
        round(Map.of(), T0, List.of(result("old.gate", Health.UP), result("local.gate", Health.UP)));

        store.forgetStatesExcept(Set.of("local.gate"));

        assertThat(store.loadStates()).containsOnlyKeys("local.gate");
    }
}
