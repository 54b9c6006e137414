package dev.qaldy.status.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentStatus;
import dev.qaldy.status.incidents.entity.IncidentUpdate;
import dev.qaldy.status.incidents.entity.Origin;
import dev.qaldy.status.probes.entity.CellsFormat;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.Reason;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** summary.json: the Statuspage shape, per-cell status, "since", and "no data since" instead of green. */
class SummaryViewTest {

    private static final long NOW = Instant.parse("2025-04-01T10:00:00Z").toEpochMilli();
    private static final long STARTED = NOW - 600_000;

    private static ComponentState state(String id, Health health, long sinceMs, long lastMs) {
        return new ComponentState(id, health, health == Health.UP ? Reason.READY : Reason.NO_ANSWER, sinceMs, lastMs,
                health == Health.UP ? 12L : null, health == Health.UP ? "Ready." : "No answer: connection refused.");
    }

    private static JsonObject summary(Map<String, ComponentState> states, List<Incident> open, List<Incident> resolved) {
        return SummaryView.of(new SummaryView.Input("Qaldy status",
                CellsFormat.parse("local=gate:http://a:1,control:http://a:2;edge=gate:http://b:1"), states, open, resolved,
                NOW, STARTED, Duration.ofSeconds(30), Duration.ofSeconds(1)));
    }

    private static JsonObject component(JsonObject summary, String id) {
        return summary.getJsonArray("components").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("id").equals(id)).findFirst().orElseThrow();
    }

    @Test
    void componentsCarryCellStatusSinceAndNoDataSince() {
        JsonObject summary = summary(Map.of(
                "local.gate", state("local.gate", Health.UP, NOW - 3_600_000, NOW - 2_000),
                "local.control", state("local.control", Health.DOWN, NOW - 45_000, NOW - 2_000),
                "local.database", state("local.database", Health.UP, NOW - 3_600_000, NOW - 120_000)),
                List.of(), List.of());

        assertThat(summary.getJsonObject("page").getString("name")).isEqualTo("Qaldy status");
        assertThat(summary.getJsonObject("page").getString("updated_at")).isEqualTo("2025-04-01T10:00:00Z");
        assertThat(summary.getJsonArray("components")).hasSize(6);

        JsonObject gate = component(summary, "local.gate");
        assertThat(gate.getString("cell")).isEqualTo("local");
        assertThat(gate.getString("component")).isEqualTo("gate");
        assertThat(gate.getString("name")).isEqualTo("Gate");
        assertThat(gate.getString("status")).isEqualTo("operational");
        assertThat(gate.getString("since")).isEqualTo("2025-04-01T09:00:00Z");
        assertThat(gate.getString("updated_at")).isEqualTo("2025-04-01T09:59:58Z");
        assertThat(gate.get("no_data_since")).isEqualTo(JsonValue.NULL);
        assertThat(gate.getInt("latency_ms")).isEqualTo(12);

        JsonObject control = component(summary, "local.control");
        assertThat(control.getString("status")).isEqualTo("major_outage");
        assertThat(control.getString("since")).isEqualTo("2025-04-01T09:59:15Z");
        assertThat(control.getString("description")).isEqualTo("No answer: connection refused.");

        // up, but the latest probe is two minutes old: no data since then, never operational
        JsonObject database = component(summary, "local.database");
        assertThat(database.getString("status")).isEqualTo("unknown");
        assertThat(database.getString("no_data_since")).isEqualTo("2025-04-01T09:58:00Z");
        assertThat(database.get("latency_ms")).isEqualTo(JsonValue.NULL);

        // never probed: no data since the status page started
        JsonObject builder = component(summary, "local.builder");
        assertThat(builder.getString("status")).isEqualTo("unknown");
        assertThat(builder.getString("no_data_since")).isEqualTo("2025-04-01T09:50:00Z");
        assertThat(builder.get("updated_at")).isEqualTo(JsonValue.NULL);

        assertThat(summary.getJsonObject("status").getString("indicator")).isEqualTo("major");
        List<JsonObject> cells = summary.getJsonArray("cells").getValuesAs(JsonObject.class);
        assertThat(cells).extracting(c -> c.getString("name")).containsExactly("local", "edge");
        assertThat(cells.get(0).getJsonObject("status").getString("indicator")).isEqualTo("major");
        assertThat(cells.get(1).getJsonObject("status").getString("indicator")).isEqualTo("minor");
        assertThat(cells.get(0).getJsonArray("components")).hasSize(5);
    }

    @Test
    void everythingDownIsCritical() {
        JsonObject summary = summary(Map.of(
                "local.gate", state("local.gate", Health.DOWN, NOW - 45_000, NOW - 2_000),
                "local.control", state("local.control", Health.DOWN, NOW - 45_000, NOW - 2_000),
                "edge.gate", state("edge.gate", Health.DOWN, NOW - 45_000, NOW - 2_000)), List.of(), List.of());

        assertThat(summary.getJsonObject("status").getString("indicator")).isEqualTo("critical");
        assertThat(summary.getJsonObject("status").getString("description")).isEqualTo("Major outage");
    }

    @Test
    void theRuntimeHostDownIsAMajorOutageOfAppsSaidInPeoplesWords() {
        Map<String, ComponentState> states = new java.util.HashMap<>();
        for (String key : List.of("gate", "control", "database", "builder", "scheduler")) {
            states.put("one." + key, state("one." + key, Health.UP, NOW - 3_600_000, NOW - 2_000));
        }
        states.put("one.runtime", state("one.runtime", Health.DOWN, NOW - 60_000, NOW - 2_000));
        JsonObject summary = SummaryView.of(new SummaryView.Input("Qaldy status",
                CellsFormat.parse("one=gate:http://a:1,control:http://a:2,runtime:http://a:3"), states, List.of(), List.of(),
                NOW, STARTED, Duration.ofSeconds(30), Duration.ofSeconds(1)));

        JsonObject status = summary.getJsonObject("status");
        assertThat(status.getString("indicator")).isEqualTo("critical");
        assertThat(status.getString("description")).isEqualTo("Major outage");
        assertThat(status.getString("headline"))
                .isEqualTo("Apps are down; sign-in, the console and builds keep working; webhooks and schedules wait.");
        List<JsonObject> groups = summary.getJsonArray("groups").getValuesAs(JsonObject.class);
        assertThat(groups).extracting(g -> g.getString("id"))
                .containsExactly("apps", "sign-in", "console", "builds", "webhooks", "schedules");
        assertThat(groups.get(0).getString("name")).isEqualTo("Apps (already opened)");
        assertThat(groups.get(0).getString("status")).isEqualTo("major_outage");
        assertThat(groups.get(0).getInt("position")).isEqualTo(1);
        assertThat(groups.get(0).getJsonArray("components").getValuesAs(JsonString.class)).extracting(JsonString::getString)
                .containsExactly("one.gate", "one.runtime");
        assertThat(groups.get(1).getString("status")).isEqualTo("operational");
        assertThat(summary.getJsonArray("cells").getJsonObject(0).getJsonObject("status").getString("indicator"))
                .isEqualTo("critical");
        assertThat(component(summary, "one.runtime").getString("role")).isEqualTo("Runs the apps.");
    }

    @Test
    void aComponentNeverUpIsStartingNotDown() {
        JsonObject summary = summary(Map.of(
                "local.gate", state("local.gate", Health.UP, NOW - 60_000, NOW - 2_000),
                "local.control", new ComponentState("local.control", Health.DOWN, Reason.NO_ANSWER, NOW - 60_000, NOW - 2_000,
                        null, "No answer: connection refused.", true)), List.of(), List.of());

        assertThat(component(summary, "local.control").getString("status")).isEqualTo("starting");
        assertThat(summary.getJsonObject("status").getString("indicator")).isNotIn("major", "critical");
    }

    @Test
    void incidentsInStatuspagesShape() {
        Incident open = new Incident(7, "Control plane unreachable", IncidentStatus.INVESTIGATING, Origin.AUTOMATIC,
                "local.control", NOW - 60_000, NOW - 60_000, NOW - 30_000, null,
                List.of(new IncidentUpdate(IncidentStatus.INVESTIGATING, "Down.", NOW - 30_000)));
        Incident resolved = new Incident(3, "Slow builds", IncidentStatus.RESOLVED, Origin.OPERATOR, null, null,
                NOW - 7_200_000, NOW - 3_600_000, NOW - 3_600_000,
                List.of(new IncidentUpdate(IncidentStatus.RESOLVED, "Fixed.", NOW - 3_600_000),
                        new IncidentUpdate(IncidentStatus.INVESTIGATING, "Looking.", NOW - 7_200_000)));

        JsonObject summary = summary(Map.of(), List.of(open), List.of(resolved));

        JsonObject incident = summary.getJsonArray("incidents").getJsonObject(0);
        assertThat(incident.getString("id")).isEqualTo("7");
        assertThat(incident.getString("name")).isEqualTo("Control plane unreachable");
        assertThat(incident.getString("status")).isEqualTo("investigating");
        assertThat(incident.getString("origin")).isEqualTo("automatic");
        assertThat(incident.getJsonArray("components").getString(0)).isEqualTo("local.control");
        assertThat(incident.getString("created_at")).isEqualTo("2025-04-01T09:59:00Z");
        assertThat(incident.getString("updated_at")).isEqualTo("2025-04-01T09:59:30Z");
        assertThat(incident.get("resolved_at")).isEqualTo(JsonValue.NULL);
        assertThat(incident.getJsonArray("incident_updates").getJsonObject(0).getString("body")).isEqualTo("Down.");
        assertThat(incident.getJsonArray("incident_updates").getJsonObject(0).getString("created_at"))
                .isEqualTo("2025-04-01T09:59:30Z");

        JsonObject done = summary.getJsonArray("resolved_incidents").getJsonObject(0);
        assertThat(done.getString("status")).isEqualTo("resolved");
        assertThat(done.getString("resolved_at")).isEqualTo("2025-04-01T09:00:00Z");
        assertThat(done.getJsonArray("components")).isEmpty();
        assertThat(done.getJsonArray("incident_updates")).hasSize(2);
    }
}
