package dev.qaldy.control.sharing.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.boundary.QueryNumbers;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.sharing.control.GateCursors;
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
import java.util.Optional;

/**
 * {@code GET /api/v1/internal/sharing-changes[?since=S][&limit=N][&gate=URL]} (service token): the
 * sharing changes after sequence S, in order →
 * {@code {"changes":[{"sequence","app","sharingVersion"}…],"next":<cursor after this page>,"more":bool,"gap":bool}}
 * (N 1..1000, default 500). Without {@code since}: no changes and {@code next} = the feed's end
 * (a starting gate). {@code gap} true: changes after S are no longer kept (or S is from another
 * database); the gate forgets every copy and goes on from {@code next}. {@code gate} is the asking
 * gate's URL as in {@code qaldy.control.gate-urls}: with {@code since}, it tells that the gate has
 * applied every change up to S (the API waits on it for a gate its push missed).
 */
@Path("internal/sharing-changes")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
public class SharingChangesResource {

    static final int DEFAULT_LIMIT = 500;

    @Inject
    SharingFeed feed;

    @Inject
    GateCursors cursors;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response changed(@QueryParam("since") String since, @QueryParam("limit") String limit, @QueryParam("gate") String gate) {
        Optional<Long> cursor = since == null ? Optional.empty() : Optional.of(QueryNumbers.wholeNumber("since", since));
        int size = limit == null ? DEFAULT_LIMIT : (int) Math.min(SharingFeed.MAX_PAGE, Math.max(1, QueryNumbers.wholeNumber("limit", limit)));
        if (gate != null && gate.length() > 2048) {
            throw new InvalidInput("gate must be the gate's URL");
        }
        if (gate != null && !gate.isBlank() && cursor.isPresent()) {
            cursors.reported(gate, cursor.get());
        }
        SharingFeed.Page page = feed.changedSince(cursor, size);
        JsonArrayBuilder changes = Json.createArrayBuilder();
        page.changes().forEach(c -> changes.add(Json.createObjectBuilder().add("sequence", c.sequence()).add("app", c.app())
                .add("sharingVersion", c.sharingVersion())));
        String json = Json.createObjectBuilder().add("changes", changes).add("next", page.next()).add("more", page.more())
                .add("gap", page.gap()).build().toString();
        return Response.ok(json, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }
}
