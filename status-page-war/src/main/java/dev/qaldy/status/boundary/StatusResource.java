package dev.qaldy.status.boundary;

import dev.qaldy.status.incidents.control.Incidents;
import dev.qaldy.status.platform.Problem;
import dev.qaldy.status.platform.StatusSettings;
import dev.qaldy.status.probes.control.ComponentStates;
import dev.qaldy.status.probes.control.ProbeStore;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ComponentStatus;
import dev.qaldy.status.probes.entity.ProbeRecord;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** The public JSON the page (and anyone) reads; it reveals nothing but what the page shows. */
@Path("v2")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class StatusResource {

    /** Most resolved incidents in the summary. */
    static final int RESOLVED_SHOWN = 10;
    /** Most incidents in {@code incidents.json}. */
    static final int INCIDENTS_LISTED = 50;
    /** Most raw probes in {@code probes.json}. */
    static final int PROBES_LISTED = 1000;

    @Inject
    StatusSettings settings;

    @Inject
    ComponentStates states;

    @Inject
    ProbeStore probes;

    @Inject
    Incidents incidents;

    @Inject
    Clock clock;

    /** Overall status, every component with its status and since when, open and recently resolved incidents. */
    @GET
    @Path("summary.json")
    public JsonObject summary() {
        long now = clock.millis();
        return SummaryView.of(new SummaryView.Input(settings.pageName(), settings.cells(), states.current(),
                incidents.open(), incidents.resolvedSince(now - settings.resolvedShown().toMillis(), RESOLVED_SHOWN),
                now, states.startedAtMs(), settings.staleAfter(), settings.slowAfter()));
    }

    /** Uptime per component per UTC day over the history ({@code qaldy.status.history-days}, 90 by default). */
    @GET
    @Path("uptime.json")
    public JsonObject uptime() {
        long now = clock.millis();
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        int days = settings.historyDays();
        Map<String, ComponentState> current = states.current();
        Map<String, ComponentStatus> statuses = new HashMap<>();
        for (Component component : settings.components()) {
            statuses.put(component.id(), StatusMapping.status(current.get(component.id()), now, settings.staleAfter(),
                    settings.slowAfter()));
        }
        return UptimeView.of(settings.pageName(), settings.components(),
                probes.dayCounts(today.minusDays(days - 1L).toEpochDay()), today, days, now, statuses);
    }

    /** The newest incidents, open or resolved. */
    @GET
    @Path("incidents.json")
    public JsonObject incidents() {
        return Json.createObjectBuilder()
                .add("incidents", IncidentJson.of(incidents.latest(INCIDENTS_LISTED)))
                .build();
    }

    /** The raw probes of one component (e.g. {@code local.control}) kept for the last day, newest first. */
    @GET
    @Path("components/{id}/probes.json")
    public JsonObject probes(@PathParam("id") String id) {
        Component component = settings.components().stream().filter(c -> c.id().equals(id)).findFirst()
                .orElseThrow(() -> Problem.notFound("No component " + id + "."));
        long from = clock.millis() - settings.rawProbesKept().toMillis();
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (ProbeRecord probe : probes.probes(component.id(), from, PROBES_LISTED)) {
            JsonObjectBuilder json = Json.createObjectBuilder()
                    .add("at", IncidentJson.time(probe.atMs()))
                    .add("health", probe.health().name().toLowerCase(Locale.ROOT))
                    .add("detail", probe.detail());
            if (probe.latencyMs() == null) {
                json.addNull("latency_ms");
            } else {
                json.add("latency_ms", probe.latencyMs());
            }
            list.add(json);
        }
        return Json.createObjectBuilder().add("id", component.id()).add("probes", list).build();
    }
}
