package dev.qaldy.control.webhooks.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.boundary.QueryNumbers;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.webhooks.control.HookChanges;
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
 * {@code GET /api/v1/internal/hooks?since=S[&limit=N]} (gate-to-control credential): every hook made
 * or deleted after change S, in change order, with what a gate checks a delivery with (issue 17) →
 * {@code {"hooks":[…],"next":<last sequence>,"more":bool}} (N ≤ 1000, default 500). Holds secrets:
 * {@code no-store}, and only the gates' credential reads it.
 */
@Path("internal/hooks")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
public class HookFeedResource {

    static final int DEFAULT_LIMIT = 500;

    @Inject
    HookChanges changes;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response changed(@QueryParam("since") String since, @QueryParam("limit") String limit) {
        HookChanges.Page page = changes.since(QueryNumbers.wholeNumber("since", since, 0),
                (int) Math.min(HookChanges.MAX_PAGE, Math.max(1, QueryNumbers.wholeNumber("limit", limit, DEFAULT_LIMIT))));
        JsonArrayBuilder hooks = Json.createArrayBuilder();
        page.changes().forEach(m -> hooks.add(m.toJson()));
        String json = Json.createObjectBuilder().add("hooks", hooks).add("next", page.next()).add("more", page.more()).build().toString();
        return Response.ok(json, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }
}
