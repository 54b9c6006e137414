package dev.qaldy.status.boundary;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentUpdate;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** Incidents as JSON, in Statuspage's shape; times are ISO-8601 UTC, absent ones {@code null}. */
public final class IncidentJson {

    private IncidentJson() {
    }

    /** One incident: id, name, status, origin, components, created_at, updated_at, resolved_at, incident_updates. */
    public static JsonObject of(Incident incident) {
        JsonArrayBuilder updates = Json.createArrayBuilder();
        for (IncidentUpdate update : incident.updates()) {
            updates.add(Json.createObjectBuilder()
                    .add("status", update.status().json())
                    .add("body", update.body())
                    .add("created_at", time(update.createdMs())));
        }
        JsonArrayBuilder components = Json.createArrayBuilder();
        if (incident.componentId() != null) {
            components.add(incident.componentId());
        }
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("id", String.valueOf(incident.id()))
                .add("name", incident.name())
                .add("status", incident.status().json())
                .add("origin", incident.origin().name().toLowerCase(Locale.ROOT))
                .add("components", components)
                .add("created_at", time(incident.createdMs()))
                .add("updated_at", time(incident.updatedMs()));
        time(json, "resolved_at", incident.resolvedMs());
        return json.add("incident_updates", updates).build();
    }

    /** Many incidents, in order. */
    public static JsonArrayBuilder of(List<Incident> incidents) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        incidents.forEach(incident -> array.add(of(incident)));
        return array;
    }

    /** {@code epochMs} as ISO-8601 UTC with milliseconds. */
    static String time(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    /** Adds {@code name}: the time, or {@code null}. */
    static void time(JsonObjectBuilder json, String name, Long epochMs) {
        if (epochMs == null) {
            json.addNull(name);
        } else {
            json.add(name, time(epochMs));
        }
    }
}
