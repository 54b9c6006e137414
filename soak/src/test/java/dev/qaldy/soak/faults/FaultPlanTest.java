package dev.qaldy.soak.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.soak.history.FaultKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

    static final List<String> CELL = List.of("db", "control", "runtime", "gate", "gate2");

    @Test
    void the_same_seed_gives_the_same_timeline_and_another_seed_another() {
        assertThat(FaultPlan.of(5, Duration.ofMinutes(5), CELL)).isEqualTo(FaultPlan.of(5, Duration.ofMinutes(5), CELL));
        assertThat(FaultPlan.of(5, Duration.ofMinutes(5), CELL)).isNotEqualTo(FaultPlan.of(6, Duration.ofMinutes(5), CELL));
    }

    @Test
    void every_round_has_one_or_two_faults_of_the_cells_components_each_on_its_own_component() {
        for (long seed = 0; seed < 200; seed++) {
            for (PlannedRound round : FaultPlan.of(seed, Duration.ofMinutes(20), CELL)) {
                assertThat(round.faults()).hasSizeBetween(1, 2);
                assertThat(round.faults()).allSatisfy(f -> assertThat(CELL).contains(f.component()));
                assertThat(round.faults().stream().map(PlannedFault::component).distinct()).hasSameSizeAs(round.faults());
                assertThat(round.faults().get(0).after()).isZero();
                assertThat(round.faults()).allSatisfy(f -> assertThat(f.hold())
                        .isBetween(Duration.ZERO, Duration.ofMinutes(2)));
                if (round.shape().equals("a restart during an outage")) {
                    assertThat(round.faults().get(0).component()).isIn("control", "db");
                    assertThat(round.faults().get(1).kind()).isEqualTo(FaultKind.RESTART);
                    assertThat(round.faults().get(1).after()).isLessThan(round.faults().get(0).hold());
                }
            }
        }
    }

    @Test
    void rounds_are_planned_to_fill_the_minutes_and_faults_last_seconds_to_minutes() {
        List<PlannedRound> hour = FaultPlan.of(42, Duration.ofMinutes(60), CELL);
        assertThat(hour.size()).isBetween(20, 120);
        assertThat(hour.stream().flatMap(r -> r.faults().stream()).map(PlannedFault::kind).distinct())
                .containsExactlyInAnyOrderElementsOf(FaultPlan.ON_ONE_HOST);
        assertThat(hour.stream().flatMap(r -> r.faults().stream()).map(PlannedFault::component).distinct())
                .containsExactlyInAnyOrderElementsOf(CELL);
        assertThat(hour.stream().flatMap(r -> r.faults().stream()).filter(f -> f.kind() != FaultKind.RESTART)
                .map(PlannedFault::hold).max(Duration::compareTo).orElseThrow()).isGreaterThan(Duration.ofMinutes(1));
        assertThat(FaultPlan.of(42, Duration.ofMinutes(1), CELL)).isNotEmpty();
    }

    @Test
    void on_many_hosts_a_control_plane_gate_or_runtime_host_may_be_cut_the_database_never() {
        List<PlannedRound> hour = FaultPlan.of(42, Duration.ofMinutes(60), CELL, true);
        List<PlannedFault> cuts = hour.stream().flatMap(r -> r.faults().stream()).filter(f -> f.kind() == FaultKind.CUT).toList();
        assertThat(cuts).isNotEmpty();
        assertThat(cuts).allSatisfy(f -> assertThat(f.component()).isNotEqualTo("db"));
        assertThat(cuts).allSatisfy(f -> assertThat(f.hold()).isPositive());
        for (long seed = 0; seed < 200; seed++) {
            assertThat(FaultPlan.of(seed, Duration.ofMinutes(20), CELL)).as("a cell of one host cuts nothing")
                    .allSatisfy(r -> assertThat(r.faults()).noneMatch(f -> f.kind() == FaultKind.CUT));
        }
        assertThat(FaultPlan.of(42, Duration.ofMinutes(20), CELL, false)).isEqualTo(FaultPlan.of(42, Duration.ofMinutes(20), CELL));
    }

    @Test
    void a_longer_soak_of_the_same_seed_runs_the_same_rounds_first() {
        List<PlannedRound> half = FaultPlan.of(42, Duration.ofMinutes(30), CELL);
        assertThat(FaultPlan.of(42, Duration.ofMinutes(60), CELL)).startsWith(half.toArray(PlannedRound[]::new));
    }
}
