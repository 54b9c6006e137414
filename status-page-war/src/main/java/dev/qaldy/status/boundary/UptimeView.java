package dev.qaldy.status.boundary;

import dev.qaldy.status.probes.control.UptimeCalculator;
import dev.qaldy.status.probes.control.UptimeCalculator.ComponentUptime;
import dev.qaldy.status.probes.control.UptimeCalculator.DayUptime;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentStatus;
import dev.qaldy.status.probes.entity.DayCount;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v2/uptime.json}: per component, one entry per UTC day for the last
 * {@code qaldy.status.history-days} days (oldest first) with the uptime percentage, or
 * {@code null} for a day without data; the component's {@code uptime_percent} is over its
 * {@code days_with_data} days only ({@code null} when none), not over all the days. While a
 * component is unknown or starting, today has no percentage: no green bar beside an "Unknown".
 */
public final class UptimeView {

    private UptimeView() {
    }

    /**
     * The uptime JSON for {@code components} over {@code days} UTC days ending {@code today}, given
     * their statuses {@code now} by id (missing: unknown).
     */
    public static JsonObject of(String pageName, List<Component> components, List<DayCount> counts, LocalDate today,
            int days, long nowMs, Map<String, ComponentStatus> now) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (Component component : components) {
            ComponentStatus status = now.getOrDefault(component.id(), ComponentStatus.UNKNOWN);
            boolean todayKnown = status != ComponentStatus.UNKNOWN && status != ComponentStatus.STARTING;
            ComponentUptime uptime = UptimeCalculator.uptime(component.id(), counts, today, days, todayKnown);
            JsonArrayBuilder dayList = Json.createArrayBuilder();
            for (DayUptime day : uptime.days()) {
                JsonObjectBuilder json = Json.createObjectBuilder().add("date", day.date().toString());
                percent(json, day.percent());
                dayList.add(json.add("up", day.up()).add("down", day.down()).add("unknown", day.unknown()));
            }
            JsonObjectBuilder json = Json.createObjectBuilder()
                    .add("id", component.id())
                    .add("cell", component.cell())
                    .add("component", component.key())
                    .add("name", component.name());
            percent(json, uptime.percent());
            list.add(json.add("days_with_data", uptime.daysWithData()).add("days", dayList));
        }
        return Json.createObjectBuilder()
                .add("page", Json.createObjectBuilder().add("name", pageName).add("updated_at", IncidentJson.time(nowMs)))
                .add("time_zone", "UTC")
                .add("days", days)
                .add("first_day", today.minusDays(days - 1L).toString())
                .add("last_day", today.toString())
                .add("components", list)
                .build();
    }

    private static void percent(JsonObjectBuilder json, Double percent) {
        if (percent == null) {
            json.addNull("uptime_percent");
        } else {
            json.add("uptime_percent", percent);
        }
    }
}
