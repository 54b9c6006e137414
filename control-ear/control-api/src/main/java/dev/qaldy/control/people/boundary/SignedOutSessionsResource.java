package dev.qaldy.control.people.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.people.entity.SignOutPage;
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
 * {@code GET /api/v1/internal/signed-out-sessions?after=C[&limit=N]} (service token): the unexpired
 * sign-out marks after cursor C (0: from the start), in cursor order →
 * {@code {"sessions":[{"jti":"…","exp":<epoch s>}],"next":<cursor>,"more":bool}} (N ≤ 1000, default
 * 500). A starting gate reads it page by page into its list of signed-out sessions.
 */
@Path("internal/signed-out-sessions")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
public class SignedOutSessionsResource {

    @Inject
    Sessions sessions;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response unexpired(@QueryParam("after") String after, @QueryParam("limit") String limit) {
        long cursor = QueryNumbers.wholeNumber("after", after, 0);
        int size = SignOutPage.limit((int) Math.min(Integer.MAX_VALUE, QueryNumbers.wholeNumber("limit", limit, SignOutPage.DEFAULT)));
        SignOutPage page = sessions.unexpiredSignOuts(cursor, size);
        JsonArrayBuilder marks = Json.createArrayBuilder();
        page.marks().forEach(m -> marks.add(Json.createObjectBuilder().add("jti", m.tokenId()).add("exp", m.expiresAt().getEpochSecond())));
        String json = Json.createObjectBuilder().add("sessions", marks).add("next", page.next()).add("more", page.more())
                .build().toString();
        return Response.ok(json, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }
}
