package dev.qaldy.status.incidents.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.incidents.control.IncidentRules.Action;
import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentStatus;
import dev.qaldy.status.incidents.entity.Origin;
import dev.qaldy.status.probes.entity.CellsFormat;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.Reason;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** When incidents open and resolve by themselves: a table over state, latest incident and time. */
class IncidentRulesTest {

    private static final Duration AFTER = Duration.ofSeconds(30);
    private static final Duration STALE = Duration.ofSeconds(30);
    private static final long SINCE = 1_000_000;

    private static ComponentState state(Health health, long sinceMs, long lastProbeMs) {
        return new ComponentState("local.control", health, health == Health.UP ? Reason.READY : Reason.NO_ANSWER,
                sinceMs, lastProbeMs, null, "");
    }

    private static Incident incident(boolean open, long episodeSinceMs) {
        return new Incident(1, "Control plane unreachable", open ? IncidentStatus.INVESTIGATING : IncidentStatus.RESOLVED,
                Origin.AUTOMATIC, "local.control", episodeSinceMs, episodeSinceMs, episodeSinceMs,
                open ? null : episodeSinceMs + 1, List.of());
    }

    static Stream<Arguments> table() {
        long now = SINCE + 30_000;
        return Stream.of(
                // down long enough, nothing open: open
                Arguments.of("down 30 s", state(Health.DOWN, SINCE, now), null, now, Action.OPEN),
                Arguments.of("down 29.999 s", state(Health.DOWN, SINCE, now - 1), null, now - 1, Action.NONE),
                Arguments.of("down 10 min", state(Health.DOWN, SINCE, SINCE + 600_000), null, SINCE + 600_000, Action.OPEN),
                // already open for it: nothing more
                Arguments.of("down, incident open", state(Health.DOWN, SINCE, now), incident(true, SINCE), now, Action.NONE),
                // an operator resolved this very down run: not reopened
                Arguments.of("down, same run resolved by hand", state(Health.DOWN, SINCE, now), incident(false, SINCE), now, Action.NONE),
                // an older run's incident is resolved: a new run gets a new incident
                Arguments.of("down again after an older incident", state(Health.DOWN, SINCE, now), incident(false, SINCE - 90_000), now, Action.OPEN),
                // up with an open incident: resolve; up without one: nothing
                Arguments.of("up, incident open", state(Health.UP, now, now), incident(true, SINCE), now, Action.RESOLVE),
                Arguments.of("up, nothing open", state(Health.UP, SINCE, now), null, now, Action.NONE),
                Arguments.of("up, incident resolved", state(Health.UP, now, now), incident(false, SINCE), now, Action.NONE),
                // unknown neither opens nor resolves
                Arguments.of("unknown for long", state(Health.UNKNOWN, SINCE, now), null, now, Action.NONE),
                Arguments.of("unknown, incident open", state(Health.UNKNOWN, now, now), incident(true, SINCE), now, Action.NONE),
                // no fresh data (the prober is behind): neither
                Arguments.of("stale down", state(Health.DOWN, SINCE, SINCE + 1_000), null, SINCE + 31_001, Action.NONE),
                Arguments.of("stale up, incident open", state(Health.UP, SINCE, SINCE), incident(true, SINCE), SINCE + 30_001, Action.NONE),
                Arguments.of("never probed", null, null, now, Action.NONE));
    }

    @ParameterizedTest(name = "{0} -> {4}")
    @MethodSource("table")
    void decide(String name, ComponentState state, Incident latest, long nowMs, Action action) {
        assertThat(IncidentRules.decide(state, latest, nowMs, AFTER, STALE)).isEqualTo(action);
    }

    @ParameterizedTest(name = "{0}, {1} -> {3}")
    @CsvSource({
            "control, NO_ANSWER, false, Control plane unreachable",
            "control, NOT_READY, false, Control plane not ready",
            "database, CHECK_DOWN, false, Database down",
            "gate-2, NO_ANSWER, false, Gate 2 unreachable",
            "runtime, NO_ANSWER, true, Runtime host unreachable in cell local"})
    void titles(String key, Reason reason, boolean severalCells, String title) {
        Component component = CellsFormat.parse("local=gate:http://a:1,http://a:4,control:http://a:2,runtime:http://a:3")
                .get(0).components().stream().filter(c -> c.key().equals(key)).findFirst().orElseThrow();
        ComponentState state = new ComponentState(component.id(), Health.DOWN, reason, 0, 0, null, "");

        assertThat(IncidentRules.title(component, state, severalCells)).isEqualTo(title);
    }

    @ParameterizedTest(name = "{0} s -> {1}")
    @CsvSource({"0, 0 seconds", "1, 1 second", "45, 45 seconds", "60, 1 minute", "125, 2 minutes 5 seconds",
            "3600, 1 hour", "3780, 1 hour 3 minutes", "90061, 25 hours 1 minute"})
    void durationsInWords(long seconds, String words) {
        assertThat(IncidentRules.words(Duration.ofSeconds(seconds))).isEqualTo(words);
    }

    @Test
    void messagesSayWhatHappened() {
        Component control = CellsFormat.parse("local=control:http://a:2").get(0).components().get(0);
        ComponentState state = new ComponentState(control.id(), Health.DOWN, Reason.NO_ANSWER, 0, 0, null,
                "No answer: connection refused.");

        assertThat(IncidentRules.openingMessage(control, state, AFTER)).isEqualTo(
                "The status page has found the control plane down for more than 30 seconds. "
                        + "No answer: connection refused. We are looking into it.");
        assertThat(IncidentRules.resolvingMessage(control, 0, 125_000)).isEqualTo(
                "The control plane is up again. It was down for 2 minutes 5 seconds.");
    }
}
