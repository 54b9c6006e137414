package dev.qaldy.status.boundary;

import dev.qaldy.status.boundary.StatusMapping.Overall;
import dev.qaldy.status.groups.control.GroupDerivation;
import dev.qaldy.status.groups.control.Headline;
import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ComponentStatus;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v2/summary.json}: one summary for every watched cell, in Atlassian Statuspage's
 * shape. Each component and the {@code cells} list carry the cell's name; {@code status} is the
 * whole page's, judged from its {@code groups} (the ways people use the platform) with a
 * {@code headline} sentence; {@code incidents} are the unresolved ones (as in Statuspage) and
 * {@code resolved_incidents} those resolved recently.
 */
public final class SummaryView {

    private SummaryView() {
    }

    /**
     * What the summary is made of.
     *
     * @param pageName      the page's title
     * @param cells         the watched cells
     * @param states        current states by component id
     * @param open          unresolved incidents, newest first
     * @param resolved      recently resolved incidents, newest first
     * @param nowMs         epoch ms now
     * @param startedAtMs   epoch ms when the status page started ("no data since" for components never probed)
     * @param staleAfter    how old a probe may be before "no data"
     * @param slowAfter     latency from which an up component is degraded
     */
    public record Input(String pageName, List<Cell> cells, Map<String, ComponentState> states, List<Incident> open,
            List<Incident> resolved, long nowMs, long startedAtMs, Duration staleAfter, Duration slowAfter) {
    }

    /** The summary JSON. */
    public static JsonObject of(Input in) {
        JsonArrayBuilder components = Json.createArrayBuilder();
        JsonArrayBuilder cells = Json.createArrayBuilder();
        List<List<GroupStatus>> groupsByCell = new ArrayList<>();
        int position = 1;
        for (Cell cell : in.cells()) {
            Map<String, ComponentStatus> ofCell = new HashMap<>();
            JsonArrayBuilder ids = Json.createArrayBuilder();
            for (Component component : cell.components()) {
                ComponentState state = in.states().get(component.id());
                ComponentStatus status = StatusMapping.status(state, in.nowMs(), in.staleAfter(), in.slowAfter());
                ofCell.put(component.id(), status);
                ids.add(component.id());
                components.add(component(component, state, status, position++, in));
            }
            List<GroupStatus> groups = GroupDerivation.of(cell, ofCell);
            groupsByCell.add(groups);
            cells.add(Json.createObjectBuilder()
                    .add("name", cell.name())
                    .add("status", status(StatusMapping.overallOfGroups(groups), Headline.sentence(groups)))
                    .add("components", ids));
        }
        List<GroupStatus> groups = GroupDerivation.across(groupsByCell);
        return Json.createObjectBuilder()
                .add("page", Json.createObjectBuilder()
                        .add("name", in.pageName())
                        .add("updated_at", IncidentJson.time(in.nowMs()))
                        .add("time_zone", "UTC")
                        .add("stale_after_seconds", in.staleAfter().toSeconds()))
                .add("status", status(StatusMapping.overallOfGroups(groups), Headline.sentence(groups)))
                .add("groups", GroupJson.of(groups))
                .add("cells", cells)
                .add("components", components)
                .add("incidents", IncidentJson.of(in.open()))
                .add("resolved_incidents", IncidentJson.of(in.resolved()))
                .build();
    }

    private static JsonObject component(Component component, ComponentState state, ComponentStatus status, int position,
            Input in) {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("id", component.id())
                .add("cell", component.cell())
                .add("component", component.key())
                .add("kind", component.kind().key())
                .add("name", component.name())
                .add("role", component.kind().role())
                .add("position", position)
                .add("status", status.json());
        boolean fresh = state != null && state.fresh(in.nowMs(), in.staleAfter());
        if (fresh) {
            json.add("description", state.detail());
            json.add("since", IncidentJson.time(state.sinceMs()));
            json.addNull("no_data_since");
        } else {
            long noDataSince = state == null ? in.startedAtMs() : state.lastProbeMs();
            json.add("description", state == null ? "The status page has not probed it yet."
                    : "The status page has no fresh probe of it.");
            json.add("since", IncidentJson.time(noDataSince));
            json.add("no_data_since", IncidentJson.time(noDataSince));
        }
        IncidentJson.time(json, "updated_at", state == null ? null : state.lastProbeMs());
        if (state != null && state.latencyMs() != null && fresh) {
            json.add("latency_ms", state.latencyMs());
        } else {
            json.addNull("latency_ms");
        }
        return json.build();
    }

    private static JsonObject status(Overall overall, String headline) {
        return Json.createObjectBuilder()
                .add("indicator", overall.indicator().json())
                .add("description", overall.description())
                .add("headline", headline)
                .build();
    }
}
