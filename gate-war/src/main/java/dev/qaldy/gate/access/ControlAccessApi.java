package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.ControlPlane;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The control plane's internal access endpoint, as a MicroProfile REST client. */
@Path("/api/v1/internal")
public interface ControlAccessApi {

    /** {@code GET /access?app=A&person=P}; the caller reads the status (4xx and 5xx come back as responses). */
    @GET
    @Path("/access")
    @Produces(MediaType.APPLICATION_JSON)
    Response access(@HeaderParam(ControlPlane.SERVICE_TOKEN_HEADER) String serviceToken,
            @QueryParam("app") String app, @QueryParam("person") long personId);
}
