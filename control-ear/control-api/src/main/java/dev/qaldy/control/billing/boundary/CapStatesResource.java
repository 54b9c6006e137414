package dev.qaldy.control.billing.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
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
import java.util.List;

/**
 * {@code GET /api/v1/internal/cap-states}: signed cap states for the gate and the runtime host
 * (service token). {@code ?since=S[&limit=N]} → every account whose state changed after sequence
 * S, by sequence ({@code {"states":["<JWS>",…],"next":<last sequence>,"more":bool}});
 * {@code ?account=A} → that account's current state alone (404 for no such person).
 */
@Path("internal/cap-states")
@ServiceCall({ServiceDirection.GATE_TO_CONTROL, ServiceDirection.RUNTIME_TO_CONTROL})
@RequestScoped
public class CapStatesResource {

    static final int DEFAULT_LIMIT = 500;

    @Inject
    Billing billing;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response states(@QueryParam("since") String since, @QueryParam("limit") String limit,
            @QueryParam("account") String account) {
        String json;
        if (account != null) {
            String state = billing.stateOf(positive("account", account));
            json = answer(List.of(state), -1, false);
        } else {
            Billing.StatesPage page = billing.changedSince(since == null ? 0 : QueryNumbers.wholeNumber("since", since),
                    limit == null ? DEFAULT_LIMIT : (int) Math.min(Billing.MAX_PAGE, positive("limit", limit)));
            json = answer(page.states(), page.next(), page.more());
        }
        return Response.ok(json, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }

    private static String answer(List<String> states, long next, boolean more) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        states.forEach(array::add);
        var json = Json.createObjectBuilder().add("states", array).add("more", more);
        if (next >= 0) {
            json.add("next", next);
        }
        return json.build().toString();
    }

    private static long positive(String name, String value) {
        long number = QueryNumbers.wholeNumber(name, value);
        if (number == 0) {
            throw new InvalidInput(name + " must be a positive whole number");
        }
        return number;
    }
}
