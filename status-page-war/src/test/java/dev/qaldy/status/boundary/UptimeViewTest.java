package dev.qaldy.status.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.probes.entity.CellsFormat;
import dev.qaldy.status.probes.entity.ComponentStatus;
import dev.qaldy.status.probes.entity.DayCount;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** uptime.json: 90 UTC days per component, oldest first, null for days without data. */
class UptimeViewTest {

    @Test
    void ninetyDaysPerComponent() {
        LocalDate today = LocalDate.of(2025, 4, 1);
        JsonObject uptime = UptimeView.of("Qaldy status",
                CellsFormat.parse("local=gate:http://a:1,control:http://a:2").get(0).components(),
                List.of(new DayCount("local.gate", today.toEpochDay(), 3, 1, 0)), today, 90, 0,
                Map.of("local.gate", ComponentStatus.OPERATIONAL));

        assertThat(uptime.getInt("days")).isEqualTo(90);
        assertThat(uptime.getString("first_day")).isEqualTo("2025-01-02");
        assertThat(uptime.getString("last_day")).isEqualTo("2025-04-01");
        assertThat(uptime.getJsonArray("components")).hasSize(5);
        JsonObject gate = uptime.getJsonArray("components").getJsonObject(0);
        assertThat(gate.getString("id")).isEqualTo("local.gate");
        assertThat(gate.getJsonNumber("uptime_percent").doubleValue()).isEqualTo(75.0);
        assertThat(gate.getInt("days_with_data")).as("the percentage covers only the days with data").isEqualTo(1);
        assertThat(gate.getJsonArray("days")).hasSize(90);
        JsonObject last = gate.getJsonArray("days").getJsonObject(89);
        assertThat(last.getString("date")).isEqualTo("2025-04-01");
        assertThat(last.getJsonNumber("uptime_percent").doubleValue()).isEqualTo(75.0);
        assertThat(last.getInt("up")).isEqualTo(3);
        assertThat(last.getInt("down")).isEqualTo(1);
        assertThat(gate.getJsonArray("days").getJsonObject(0).get("uptime_percent")).isEqualTo(JsonValue.NULL);
        assertThat(uptime.getJsonArray("components").getJsonObject(1).get("uptime_percent")).isEqualTo(JsonValue.NULL);
        assertThat(uptime.getJsonArray("components").getJsonObject(1).getInt("days_with_data")).isZero();
    }

    @Test
    void aComponentUnknownNowHasNoGreenBarForToday() {
        LocalDate today = LocalDate.of(2025, 4, 1);
        List<DayCount> counts = List.of(
                new DayCount("local.database", today.minusDays(1).toEpochDay(), 10, 0, 0),
                new DayCount("local.database", today.toEpochDay(), 50, 0, 7),
                new DayCount("local.runtime", today.toEpochDay(), 0, 0, 12));
        List<dev.qaldy.status.probes.entity.Component> components =
                CellsFormat.parse("local=control:http://a:2,runtime:http://a:3").get(0).components();

        JsonObject uptime = UptimeView.of("Qaldy status", components, counts, today, 90, 0, Map.of(
                "local.database", ComponentStatus.UNKNOWN, "local.runtime", ComponentStatus.STARTING,
                "local.control", ComponentStatus.OPERATIONAL));

        JsonObject database = byId(uptime, "local.database");
        JsonObject todayEntry = database.getJsonArray("days").getJsonObject(89);
        assertThat(todayEntry.get("uptime_percent")).as("unknown now: no bar for today").isEqualTo(JsonValue.NULL);
        assertThat(todayEntry.getInt("up")).as("the counts stay").isEqualTo(50);
        assertThat(database.getJsonArray("days").getJsonObject(88).getJsonNumber("uptime_percent").doubleValue()).isEqualTo(100.0);
        assertThat(database.getInt("days_with_data")).isEqualTo(1);
        JsonObject runtime = byId(uptime, "local.runtime");
        assertThat(runtime.get("uptime_percent")).as("starting: no downtime, no uptime").isEqualTo(JsonValue.NULL);
        assertThat(runtime.getJsonArray("days").getJsonObject(89).getInt("unknown")).isEqualTo(12);

        JsonObject same = UptimeView.of("Qaldy status", components, counts, today, 90, 0,
                Map.of("local.database", ComponentStatus.OPERATIONAL));
        assertThat(byId(same, "local.database").getJsonArray("days").getJsonObject(89).getJsonNumber("uptime_percent")
                .doubleValue()).as("known again: today's bar is back").isEqualTo(100.0);
    }

    private static JsonObject byId(JsonObject uptime, String id) {
        return uptime.getJsonArray("components").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("id").equals(id)).findFirst().orElseThrow();
    }
}
