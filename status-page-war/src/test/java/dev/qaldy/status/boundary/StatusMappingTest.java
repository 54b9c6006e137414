package dev.qaldy.status.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.boundary.StatusMapping.Indicator;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ComponentStatus;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.Reason;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Statuses in Statuspage's words; never operational without fresh data. */
class StatusMappingTest {

    private static final Duration STALE = Duration.ofSeconds(30);
    private static final Duration SLOW = Duration.ofSeconds(1);
    private static final long NOW = 100_000;

    private static ComponentState state(Health health, Long latencyMs, long lastProbeMs) {
        return new ComponentState("local.gate", health, Reason.READY, 0, lastProbeMs, latencyMs, "");
    }

    static Stream<Arguments> components() {
        return Stream.of(
                Arguments.of("up, fast", state(Health.UP, 20L, NOW), ComponentStatus.OPERATIONAL),
                Arguments.of("up, 999 ms", state(Health.UP, 999L, NOW), ComponentStatus.OPERATIONAL),
                Arguments.of("up, 1 s", state(Health.UP, 1000L, NOW), ComponentStatus.DEGRADED_PERFORMANCE),
                Arguments.of("up, no latency (reported)", state(Health.UP, null, NOW), ComponentStatus.OPERATIONAL),
                Arguments.of("down", state(Health.DOWN, null, NOW), ComponentStatus.MAJOR_OUTAGE),
                Arguments.of("unknown", state(Health.UNKNOWN, null, NOW), ComponentStatus.UNKNOWN),
                Arguments.of("up, probe 30 s old", state(Health.UP, 20L, NOW - 30_000), ComponentStatus.OPERATIONAL),
                Arguments.of("up, probe 30.001 s old", state(Health.UP, 20L, NOW - 30_001), ComponentStatus.UNKNOWN),
                Arguments.of("down, stale", state(Health.DOWN, null, NOW - 60_000), ComponentStatus.UNKNOWN),
                Arguments.of("never probed", null, ComponentStatus.UNKNOWN));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("components")
    void component(String name, ComponentState state, ComponentStatus status) {
        assertThat(StatusMapping.status(state, NOW, STALE, SLOW)).isEqualTo(status);
    }

    static Stream<Arguments> groups() {
        return Stream.of(
                Arguments.of("OPERATIONAL OPERATIONAL", Indicator.NONE, "All systems operational"),
                Arguments.of("OPERATIONAL DEGRADED_PERFORMANCE", Indicator.MINOR, "Degraded performance"),
                Arguments.of("OPERATIONAL UNKNOWN", Indicator.MINOR, "Some components have no recent data"),
                Arguments.of("UNKNOWN UNKNOWN", Indicator.MINOR, "Some components have no recent data"),
                Arguments.of("DEGRADED_PERFORMANCE UNKNOWN", Indicator.MINOR, "Some components are slow or have no recent data"),
                Arguments.of("OPERATIONAL MAJOR_OUTAGE UNKNOWN", Indicator.MAJOR, "Partial outage"),
                Arguments.of("DEGRADED_PERFORMANCE PARTIAL_OUTAGE", Indicator.MAJOR, "Partial outage"),
                // every cell process stopped: nothing works
                Arguments.of("MAJOR_OUTAGE MAJOR_OUTAGE UNKNOWN UNKNOWN", Indicator.CRITICAL, "Major outage"),
                Arguments.of("MAJOR_OUTAGE", Indicator.CRITICAL, "Major outage"),
                Arguments.of("", Indicator.MINOR, "No components are watched."));
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @MethodSource("groups")
    void group(String statuses, Indicator indicator, String description) {
        List<ComponentStatus> list = statuses.isEmpty() ? List.of()
                : Arrays.stream(statuses.split(" ")).map(ComponentStatus::valueOf).toList();

        assertThat(StatusMapping.overall(list)).isEqualTo(new StatusMapping.Overall(indicator, description));
    }
}
