package dev.qaldy.control.people.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.ServiceCall;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;

/**
 * {@code /api/v1/internal/sessions}: a gate signs out the session of a cookie it cleared on
 * {@code /.qaldy/signout} (service token), so the cookie's value replayed opens nothing.
 */
@Path("internal/sessions")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SessionSignOutResource {

    @Inject
    Sessions sessions;

    /**
     * {@code POST sign-out} {@code {"token":"…"}} → 204 once every gate was told (idempotent);
     * a token that is not a valid, unexpired session of this cell → 400.
     */
    @POST
    @Path("sign-out")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signOut(InputStream body) {
        sessions.signOutToken(JsonBody.read(body).text("token"));
        return Response.noContent().build();
    }
}
