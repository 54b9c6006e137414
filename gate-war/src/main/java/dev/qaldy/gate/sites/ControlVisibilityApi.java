package dev.qaldy.gate.sites;

import dev.qaldy.gate.platform.ControlPlane;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The control plane's internal visibility endpoint, as a MicroProfile REST client. */
@Path("/api/v1/internal/apps")
public interface ControlVisibilityApi {

    /** {@code GET /{app}/visibility}; the caller reads the status (4xx and 5xx come back as responses). */
    @GET
    @Path("/{app}/visibility")
    @Produces(MediaType.APPLICATION_JSON)
    Response visibility(@HeaderParam(ControlPlane.SERVICE_TOKEN_HEADER) String serviceToken, @PathParam("app") String app);
}
