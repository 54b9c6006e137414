package dev.qaldy.control.access.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.access.entity.AccessDecision;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.InvalidInput;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/v1/internal/access}: may person P open app A, for the gate (service token). */
@Path("internal/access")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AccessResource {

    @Inject
    Access access;

    /** {@code ?app=A&person=P} → {@code {app, personId, decision, sharingVersion, accountId}}; unknown app → 404. */
    @GET
    public AccessDecision decide(@QueryParam("app") String app, @QueryParam("person") String person) {
        if (app == null || app.isEmpty()) {
            throw new InvalidInput("query parameter app is required");
        }
        long personId;
        try {
            personId = Long.parseLong(person);
        } catch (NumberFormatException e) {
            throw new InvalidInput("query parameter person must be a person id");
        }
        return access.decide(app, personId);
    }
}
