package dev.qaldy.status.incidents.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentStatus;
import dev.qaldy.status.incidents.entity.IncidentUpdate;
import dev.qaldy.status.incidents.entity.Origin;
import dev.qaldy.status.platform.Databases;
import dev.qaldy.status.platform.StatusDatabase;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Incidents in H2: operator and automatic ones, updates newest first, resolved ones frozen, pruning. */
class IncidentsTest {

    private final StatusDatabase database = Databases.fresh();
    private final Incidents incidents = new Incidents(database);

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void anOperatorOpensUpdatesAndResolvesAnIncident() {
        Incident created = incidents.create("  Builds are slow ", IncidentStatus.INVESTIGATING, "Looking.", 1_000);
        incidents.update(created.id(), IncidentStatus.IDENTIFIED, "A full disk.", 2_000);
        Incident resolved = incidents.update(created.id(), IncidentStatus.RESOLVED, "Cleaned up.", 3_000);

        assertThat(resolved.name()).isEqualTo("Builds are slow");
        assertThat(resolved.origin()).isEqualTo(Origin.OPERATOR);
        assertThat(resolved.status()).isEqualTo(IncidentStatus.RESOLVED);
        assertThat(resolved.createdMs()).isEqualTo(1_000);
        assertThat(resolved.updatedMs()).isEqualTo(3_000);
        assertThat(resolved.resolvedMs()).isEqualTo(3_000L);
        assertThat(resolved.updates()).containsExactly(
                new IncidentUpdate(IncidentStatus.RESOLVED, "Cleaned up.", 3_000),
                new IncidentUpdate(IncidentStatus.IDENTIFIED, "A full disk.", 2_000),
                new IncidentUpdate(IncidentStatus.INVESTIGATING, "Looking.", 1_000));
        assertThat(incidents.open()).isEmpty();
        assertThat(incidents.resolvedSince(3_000, 10)).extracting(Incident::id).containsExactly(created.id());
        assertThat(incidents.resolvedSince(3_001, 10)).isEmpty();
    }

    @Test
    void aResolvedIncidentCannotChange() {
        Incident created = incidents.create("Slow", IncidentStatus.MONITORING, "Watching.", 1_000);
        incidents.update(created.id(), IncidentStatus.RESOLVED, "Fine.", 2_000);

        assertThatThrownBy(() -> incidents.update(created.id(), IncidentStatus.MONITORING, "Again?", 3_000))
                .isInstanceOf(Incidents.AlreadyResolved.class);
        assertThatThrownBy(() -> incidents.update(999, IncidentStatus.MONITORING, "Who?", 3_000))
                .isInstanceOf(NoSuchElementException.class);
        assertThat(incidents.find(created.id()).orElseThrow().updates()).hasSize(2);
    }

    @Test
    void badInputIsRefusedInPlainWords() {
        assertThatThrownBy(() -> incidents.create(" ", IncidentStatus.INVESTIGATING, "x", 1))
                .hasMessage("Give the incident a title.");
        assertThatThrownBy(() -> incidents.create("x".repeat(201), IncidentStatus.INVESTIGATING, "x", 1))
                .hasMessage("The title is longer than 200 characters.");
        assertThatThrownBy(() -> incidents.create("t", IncidentStatus.INVESTIGATING, "", 1))
                .hasMessage("Write a message for the people reading the page.");
        assertThatThrownBy(() -> incidents.create("t", IncidentStatus.RESOLVED, "x", 1))
                .hasMessage("A new incident cannot be resolved already.");
        assertThat(incidents.latest(10)).isEmpty();
    }

    @Test
    void automaticIncidentsStartAtTheFirstFailingProbeAndTheLatestPerComponentIsFound() {
        Incident first = incidents.openAutomatic("local.control", 10_000, "Control plane unreachable", "Down.", 40_000);
        incidents.resolveAutomatic(first.id(), "Up again.", 50_000, 52_000);
        Incident second = incidents.openAutomatic("local.control", 60_000, "Control plane unreachable", "Down.", 90_000);
        Incident gate = incidents.openAutomatic("local.gate", 60_000, "Gate unreachable", "Down.", 90_000);
        incidents.create("Operator note", IncidentStatus.INVESTIGATING, "Hm.", 95_000);

        Incident resolved = incidents.find(first.id()).orElseThrow();
        assertThat(resolved.createdMs()).isEqualTo(10_000);
        assertThat(resolved.resolvedMs()).isEqualTo(50_000L);
        assertThat(resolved.updatedMs()).isEqualTo(52_000);
        assertThat(resolved.updates()).extracting(IncidentUpdate::createdMs).containsExactly(52_000L, 40_000L);

        assertThat(incidents.latestAutomatic()).containsOnlyKeys("local.control", "local.gate");
        assertThat(incidents.latestAutomatic().get("local.control").id()).isEqualTo(second.id());
        assertThat(incidents.latestAutomatic().get("local.gate").episodeSinceMs()).isEqualTo(60_000L);
        assertThat(incidents.open()).extracting(Incident::name)
                .containsExactly("Operator note", "Gate unreachable", "Control plane unreachable");
        assertThat(gate.componentId()).isEqualTo("local.gate");
    }

    @Test
    void pruneDeletesOnlyIncidentsResolvedBeforeTheHistory() {
        Incident old = incidents.create("Old", IncidentStatus.INVESTIGATING, "x", 1_000);
        incidents.update(old.id(), IncidentStatus.RESOLVED, "done", 2_000);
        Incident recent = incidents.create("Recent", IncidentStatus.INVESTIGATING, "x", 1_000);
        incidents.update(recent.id(), IncidentStatus.RESOLVED, "done", 9_000);
        incidents.create("Open", IncidentStatus.INVESTIGATING, "x", 1_000);

        assertThat(incidents.prune(5_000)).isEqualTo(1);
        assertThat(incidents.latest(10)).extracting(Incident::name).containsExactlyInAnyOrder("Recent", "Open");
    }
}
