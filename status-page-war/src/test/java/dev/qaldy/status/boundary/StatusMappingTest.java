package dev.qaldy.status.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.boundary.StatusMapping.Indicator;
import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.groups.entity.UseGroup;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ComponentStatus;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.Reason;
import java.time.Duration;
import java.util.ArrayList;
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

    private static ComponentState starting(Health health, Reason reason, long lastProbeMs) {
        return new ComponentState("local.runtime", health, reason, 0, lastProbeMs, null, "", true);
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
                Arguments.of("never probed", null, ComponentStatus.UNKNOWN),
                Arguments.of("down, never up yet", starting(Health.DOWN, Reason.NO_ANSWER, NOW), ComponentStatus.STARTING),
                Arguments.of("reporter starting", starting(Health.UNKNOWN, Reason.REPORTER_DOWN, NOW), ComponentStatus.STARTING),
                Arguments.of("not reported, never up yet", starting(Health.UNKNOWN, Reason.NOT_REPORTED, NOW), ComponentStatus.UNKNOWN),
                Arguments.of("starting, stale", starting(Health.DOWN, Reason.NO_ANSWER, NOW - 60_000), ComponentStatus.UNKNOWN));
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
                Arguments.of("OPERATIONAL STARTING", Indicator.MINOR, "Starting up"),
                Arguments.of("STARTING UNKNOWN", Indicator.MINOR, "Some components are starting, slow or have no recent data"),
                Arguments.of("", Indicator.MINOR, "No components are watched."));
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @MethodSource("groups")
    void group(String statuses, Indicator indicator, String description) {
        List<ComponentStatus> list = statuses.isEmpty() ? List.of()
                : Arrays.stream(statuses.split(" ")).map(ComponentStatus::valueOf).toList();

        assertThat(StatusMapping.overall(list)).isEqualTo(new StatusMapping.Overall(indicator, description));
    }

    static Stream<Arguments> groupsAsPeopleFeelThem() {
        // apps, sign-in, console, builds, webhooks, schedules
        return Stream.of(
                Arguments.of("runtime host down: apps down", "MAJOR_OUTAGE OPERATIONAL OPERATIONAL OPERATIONAL MAJOR_OUTAGE MAJOR_OUTAGE",
                        Indicator.CRITICAL, "Major outage"),
                Arguments.of("control plane down: apps work", "OPERATIONAL MAJOR_OUTAGE PARTIAL_OUTAGE MAJOR_OUTAGE MAJOR_OUTAGE PARTIAL_OUTAGE",
                        Indicator.MAJOR, "Partial outage"),
                Arguments.of("one of two gates down", "PARTIAL_OUTAGE PARTIAL_OUTAGE PARTIAL_OUTAGE PARTIAL_OUTAGE PARTIAL_OUTAGE OPERATIONAL",
                        Indicator.MAJOR, "Partial outage"),
                Arguments.of("everything down", "MAJOR_OUTAGE MAJOR_OUTAGE MAJOR_OUTAGE MAJOR_OUTAGE MAJOR_OUTAGE MAJOR_OUTAGE",
                        Indicator.CRITICAL, "Major outage"),
                Arguments.of("a new cell", "OPERATIONAL STARTING STARTING STARTING STARTING STARTING", Indicator.MINOR, "Starting up"),
                Arguments.of("all well", "OPERATIONAL OPERATIONAL OPERATIONAL OPERATIONAL OPERATIONAL OPERATIONAL",
                        Indicator.NONE, "All systems operational"));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("groupsAsPeopleFeelThem")
    void pageFromGroups(String name, String statuses, Indicator indicator, String description) {
        String[] words = statuses.split(" ");
        List<GroupStatus> groups = new ArrayList<>();
        for (int i = 0; i < words.length; i++) {
            groups.add(new GroupStatus(UseGroup.values()[i], ComponentStatus.valueOf(words[i]), List.of()));
        }

        assertThat(StatusMapping.overallOfGroups(groups)).isEqualTo(new StatusMapping.Overall(indicator, description));
    }
}
