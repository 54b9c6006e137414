package dev.qaldy.status.incidents.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentStatus;
import dev.qaldy.status.platform.Databases;
import dev.qaldy.status.platform.MovableClock;
import dev.qaldy.status.platform.StatusDatabase;
import dev.qaldy.status.platform.TestSettings;
import dev.qaldy.status.probes.control.ComponentStates;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.ProbeResult;
import dev.qaldy.status.probes.entity.ProbeRound;
import dev.qaldy.status.probes.entity.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Probe rounds every 5 s on a moved clock, through the real state and incident code: an incident
 * opens 30 s after the first failing probe, dated at that probe, and resolves at the first probe
 * that finds the component up again.
 */
class AutoIncidentsTest {

    private static final Instant START = Instant.parse("2025-04-01T10:00:00Z");

    private final MovableClock clock = new MovableClock(START);
    private final StatusDatabase database = Databases.fresh();
    private final Incidents incidents = new Incidents(database);
    private final AutoIncidents auto = new AutoIncidents();
    private final Map<String, ComponentState> states = new HashMap<>();

    AutoIncidentsTest() {
        auto.incidents = incidents;
        auto.settings = TestSettings.defaults().build();
        auto.log = Logger.getLogger("test");
    }

    @AfterEach
    void close() {
        database.close();
    }

    /** One round at the clock's time: control as given, everything else up. */
    private void round(Health control) {
        long at = clock.millis();
        List<ProbeResult> results = new ArrayList<>();
        for (String id : List.of("local.gate", "local.database", "local.runtime", "local.builder", "local.scheduler")) {
            results.add(new ProbeResult(id, Health.UP, Reason.READY, 5L, "Ready."));
        }
        results.add(new ProbeResult("local.control", control, control == Health.UP ? Reason.READY : Reason.NO_ANSWER,
                null, control == Health.UP ? "Ready." : "No answer: connection refused."));
        ComponentStates.advance(states, results, at, Duration.ofSeconds(30)).forEach(s -> states.put(s.componentId(), s));
        auto.follow(new ProbeRound(at, states));
    }

    /** Rounds every 5 s for {@code duration}, starting now; the clock ends one interval after the last. */
    private void rounds(Health control, Duration duration) {
        for (long t = 0; t < duration.toMillis(); t += 5_000) {
            round(control);
            clock.move(Duration.ofSeconds(5));
        }
    }

    @Test
    void opensAfterThirtySecondsDatedAtTheFirstFailingProbeAndResolvesWhenUp() {
        rounds(Health.UP, Duration.ofSeconds(10));
        Instant firstFailure = clock.instant();

        rounds(Health.DOWN, Duration.ofSeconds(30));           // failing probes at 0, 5, … 25 s
        assertThat(incidents.open()).isEmpty();

        round(Health.DOWN);                                     // 30 s after the first failing probe
        assertThat(incidents.open()).singleElement().satisfies(incident -> {
            assertThat(incident.name()).isEqualTo("Control plane unreachable");
            assertThat(incident.status()).isEqualTo(IncidentStatus.INVESTIGATING);
            assertThat(incident.componentId()).isEqualTo("local.control");
            assertThat(incident.createdMs()).isEqualTo(firstFailure.toEpochMilli());
        });

        clock.move(Duration.ofSeconds(5));
        rounds(Health.DOWN, Duration.ofMinutes(2));            // still down: still one incident
        assertThat(incidents.latest(10)).hasSize(1);

        Instant back = clock.instant();
        round(Health.UP);
        assertThat(incidents.open()).isEmpty();
        Incident resolved = incidents.latest(1).get(0);
        assertThat(resolved.status()).isEqualTo(IncidentStatus.RESOLVED);
        assertThat(resolved.resolvedMs()).isEqualTo(back.toEpochMilli());
        assertThat(resolved.updates().get(0).body())
                .isEqualTo("The control plane is up again. It was down for 2 minutes 35 seconds.");
    }

    @Test
    void aShortOutageOpensNothing() {
        rounds(Health.DOWN, Duration.ofSeconds(25));
        rounds(Health.UP, Duration.ofSeconds(10));
        rounds(Health.DOWN, Duration.ofSeconds(25));

        assertThat(incidents.latest(10)).isEmpty();
    }

    @Test
    void anOperatorWhoResolvesByHandIsNotOverruledUntilTheNextOutage() {
        rounds(Health.UP, Duration.ofSeconds(5));
        rounds(Health.DOWN, Duration.ofSeconds(35));
        Incident opened = incidents.open().get(0);
        incidents.update(opened.id(), IncidentStatus.RESOLVED, "Known; ignore.", clock.millis());

        rounds(Health.DOWN, Duration.ofMinutes(1));             // the same outage goes on
        assertThat(incidents.open()).isEmpty();

        rounds(Health.UP, Duration.ofSeconds(10));
        rounds(Health.DOWN, Duration.ofSeconds(35));            // a new outage
        assertThat(incidents.open()).singleElement().extracting(Incident::id).isNotEqualTo(opened.id());
    }

    @Test
    void withoutFreshProbesNothingOpens() {
        round(Health.DOWN);
        clock.move(Duration.ofMinutes(5));                      // the prober was stuck for 5 minutes
        auto.follow(new ProbeRound(clock.millis(), states));    // an event with the old states only

        assertThat(incidents.latest(10)).isEmpty();
    }

    @Test
    void aComponentNeverUpSinceTheStatusPageBeganWatchingIsStartingAndGetsNoIncident() {
        rounds(Health.DOWN, Duration.ofMinutes(3));             // a new cell whose control plane takes its time
        assertThat(incidents.latest(10)).isEmpty();
        assertThat(states.get("local.control").starting()).isTrue();

        rounds(Health.UP, Duration.ofSeconds(5));
        rounds(Health.DOWN, Duration.ofSeconds(35));            // down after it was up: an outage
        assertThat(incidents.open()).singleElement().extracting(Incident::name).isEqualTo("Control plane unreachable");
    }

    @Test
    void severalDownComponentsGetOneIncidentEach() {
        round(Health.UP);
        clock.move(Duration.ofSeconds(5));
        for (int i = 0; i <= 6; i++) {
            long at = clock.millis();
            List<ProbeResult> results = List.of(
                    new ProbeResult("local.gate", Health.DOWN, Reason.NO_ANSWER, null, "No answer."),
                    new ProbeResult("local.control", Health.DOWN, Reason.NO_ANSWER, null, "No answer."),
                    new ProbeResult("local.database", Health.UNKNOWN, Reason.REPORTER_DOWN, null, "?"),
                    new ProbeResult("local.runtime", Health.DOWN, Reason.NO_ANSWER, null, "No answer."));
            ComponentStates.advance(states, results, at, Duration.ofSeconds(30)).forEach(s -> states.put(s.componentId(), s));
            auto.follow(new ProbeRound(at, states));
            clock.move(Duration.ofSeconds(5));
        }

        assertThat(incidents.open()).extracting(Incident::name).containsExactlyInAnyOrder(
                "Gate unreachable", "Control plane unreachable", "Runtime host unreachable");
    }
}
