package dev.qaldy.control.data.boundary;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.data.control.DataChanges;
import dev.qaldy.control.platform.boundary.QueryNumbers;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.InvalidInput;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/v1/internal/data-changes?since=S[&limit=N][&app=A]} (runtime-to-control credential):
 * every app's records (or app A's) changed after change S, and their tombstones, in change order, for
 * the runtime hosts' replicas (issue 18) → {@code {"changes":[…],"next":<last sequence>,"more":bool,
 * "head":<last change committed>}} (N ≤ 1000, default 500); entries are {@code DataChange}'s shape.
 * Holds every app's data: {@code no-store}, and only the runtime hosts' credential reads it.
 */
@Path("internal/data-changes")
@ServiceCall(ServiceDirection.RUNTIME_TO_CONTROL)
@RequestScoped
public class DataChangesResource {

    static final int DEFAULT_LIMIT = 500;

    @Inject
    DataChanges changes;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response changed(@QueryParam("since") String since, @QueryParam("limit") String limit, @QueryParam("app") String app) {
        if (app != null && !AppLabel.valid(app)) {
            throw new InvalidInput("app must be an app's name, e.g. guestbook");
        }
        DataChanges.Page page = changes.since(QueryNumbers.wholeNumber("since", since, 0),
                (int) Math.min(DataChanges.MAX_PAGE, Math.max(1, QueryNumbers.wholeNumber("limit", limit, DEFAULT_LIMIT))), app);
        JsonArrayBuilder all = Json.createArrayBuilder();
        page.changes().forEach(c -> all.add(c.toJson()));
        String json = Json.createObjectBuilder().add("changes", all).add("next", page.next()).add("more", page.more())
                .add("head", page.head()).build().toString();
        return Response.ok(json, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }
}
