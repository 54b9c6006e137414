package dev.qaldy.gate.session;

import dev.qaldy.gate.platform.ControlPlane;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The control plane's internal sessions endpoint, as a MicroProfile REST client. */
@Path("/api/v1/internal/sessions")
public interface ControlSessionsApi {

    /** {@code POST /sign-out} with {@code {"token":"…"}}; the caller reads the status. */
    @POST
    @Path("/sign-out")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Response signOut(@HeaderParam(ControlPlane.SERVICE_TOKEN_HEADER) String serviceToken, String body);
}
