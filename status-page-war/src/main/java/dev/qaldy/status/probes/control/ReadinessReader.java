package dev.qaldy.status.probes.control;

import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.ProbeResult;
import dev.qaldy.status.probes.entity.Reason;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a MicroProfile Health readiness answer means for each component. The rules:
 * <ul>
 * <li>a component probed directly is up only on HTTP 200 whose body says {@code "status":"UP"};
 * anything else, including no answer, is down;</li>
 * <li>database, builder and scheduler are read from the checks the control plane's answer lists
 * (200 or 503): a matching check DOWN is down, all matching checks UP is up, no matching check
 * is unknown, never up; when the control plane does not answer they are unknown.</li>
 * </ul>
 */
public final class ReadinessReader {

    private ReadinessReader() {
    }

    /** Results for every component of {@code cell}, given the outcome per directly probed component id. */
    public static List<ProbeResult> read(Cell cell, Map<String, HttpOutcome> outcomes) {
        List<ProbeResult> results = new ArrayList<>();
        for (Component component : cell.probedDirectly()) {
            results.add(direct(component, outcomes.get(component.id())));
        }
        Optional<Component> control = cell.control();
        if (control.isPresent()) {
            HttpOutcome controlOutcome = outcomes.get(control.get().id());
            for (Component component : cell.reportedByControl()) {
                results.add(reported(component, controlOutcome));
            }
        }
        return results;
    }

    /** The result for a component probed at its own readiness endpoint. */
    public static ProbeResult direct(Component component, HttpOutcome outcome) {
        if (outcome == null || !outcome.answered()) {
            String why = outcome == null ? "not probed" : outcome.failure();
            return new ProbeResult(component.id(), Health.DOWN, Reason.NO_ANSWER,
                    null, "No answer: " + why + ".");
        }
        Optional<JsonObject> body = json(outcome.body());
        boolean saysUp = body.map(b -> "UP".equals(string(b, "status"))).orElse(false);
        if (outcome.status() == 200 && saysUp) {
            return new ProbeResult(component.id(), Health.UP, Reason.READY, outcome.latencyMs(), "Ready.");
        }
        StringBuilder detail = new StringBuilder("Not ready: HTTP ").append(outcome.status());
        List<String> down = body.map(ReadinessReader::downChecks).orElse(List.of());
        if (!down.isEmpty()) {
            detail.append(", checks down: ").append(String.join(", ", down));
        } else if (outcome.status() == 200) {
            detail.append(" but the answer does not say UP");
        }
        return new ProbeResult(component.id(), Health.DOWN, Reason.NOT_READY, outcome.latencyMs(), detail.append('.').toString());
    }

    /** The result for a component read from the checks in the control plane's readiness answer. */
    public static ProbeResult reported(Component component, HttpOutcome controlOutcome) {
        String what = component.kind().title().toLowerCase(Locale.ROOT);
        if (controlOutcome == null || !controlOutcome.answered()) {
            return new ProbeResult(component.id(), Health.UNKNOWN, Reason.REPORTER_DOWN, null,
                    "The control plane does not answer, so the " + what + " cannot be checked.");
        }
        Optional<JsonArray> checks = json(controlOutcome.body()).map(b -> b.get("checks"))
                .filter(v -> v.getValueType() == JsonValue.ValueType.ARRAY).map(JsonValue::asJsonArray);
        if (checks.isEmpty()) {
            return new ProbeResult(component.id(), Health.UNKNOWN, Reason.NOT_REPORTED, null,
                    "The control plane's readiness answer (HTTP " + controlOutcome.status() + ") lists no checks.");
        }
        List<String> up = new ArrayList<>();
        List<String> down = new ArrayList<>();
        for (JsonValue value : checks.get()) {
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                continue;
            }
            JsonObject check = value.asJsonObject();
            String name = string(check, "name");
            if (component.kind().namesCheck(name)) {
                ("UP".equals(string(check, "status")) ? up : down).add(name);
            }
        }
        if (!down.isEmpty()) {
            return new ProbeResult(component.id(), Health.DOWN, Reason.CHECK_DOWN, null,
                    "The control plane reports its " + checks(down) + " as DOWN.");
        }
        if (!up.isEmpty()) {
            return new ProbeResult(component.id(), Health.UP, Reason.READY, null,
                    "The control plane reports its " + checks(up) + " as UP.");
        }
        return new ProbeResult(component.id(), Health.UNKNOWN, Reason.NOT_REPORTED, null,
                "The control plane's readiness has no check for the " + what + ".");
    }

    private static List<String> downChecks(JsonObject body) {
        JsonValue checks = body.get("checks");
        if (checks == null || checks.getValueType() != JsonValue.ValueType.ARRAY) {
            return List.of();
        }
        List<String> down = new ArrayList<>();
        for (JsonValue value : checks.asJsonArray()) {
            if (value.getValueType() == JsonValue.ValueType.OBJECT && !"UP".equals(string(value.asJsonObject(), "status"))) {
                down.add(string(value.asJsonObject(), "name"));
            }
        }
        return down;
    }

    private static String checks(List<String> names) {
        return (names.size() == 1 ? "check '" : "checks '") + String.join("', '", names) + "'";
    }

    private static String string(JsonObject object, String field) {
        JsonValue value = object.get(field);
        return value != null && value.getValueType() == JsonValue.ValueType.STRING ? object.getString(field) : "";
    }

    private static Optional<JsonObject> json(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            JsonStructure structure = reader.read();
            return structure instanceof JsonObject object ? Optional.of(object) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
