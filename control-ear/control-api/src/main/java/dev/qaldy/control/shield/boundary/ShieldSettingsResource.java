package dev.qaldy.control.shield.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.boundary.QueryNumbers;
import dev.qaldy.control.platform.boundary.ServiceCall;
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
 * {@code GET /api/v1/internal/shield-settings?since=S[&limit=N]} (service token): every app whose
 * shield settings changed after sequence S, in sequence order →
 * {@code {"settings":[…],"next":<last sequence>,"more":bool}} (N ≤ 1000, default 500). A deleted
 * app appears once more with empty settings.
 */
@Path("internal/shield-settings")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
public class ShieldSettingsResource {

    static final int DEFAULT_LIMIT = 500;

    @Inject
    Shields shields;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response changed(@QueryParam("since") String since, @QueryParam("limit") String limit) {
        Shields.Page page = shields.changedSince(QueryNumbers.wholeNumber("since", since, 0),
                (int) Math.min(Shields.MAX_PAGE, Math.max(1, QueryNumbers.wholeNumber("limit", limit, DEFAULT_LIMIT))));
        JsonArrayBuilder settings = Json.createArrayBuilder();
        page.changes().forEach(v -> settings.add(ShieldJson.of(v)));
        String json = Json.createObjectBuilder().add("settings", settings).add("next", page.next()).add("more", page.more())
                .build().toString();
        return Response.ok(json, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }
}
