package dev.qaldy.control.platform.boundary;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code GET /api/v1/ping}: the console's "is the control plane answering?" question, asked every
 * 15 s (seed: the console's poll). Public and cheap: 200 {@code {"status":"ok"}} when the API and
 * its database answer; 503 problem JSON with {@code Retry-After} when the database does not.
 */
@Path("ping")
public class PingResource {

    @Inject
    @Readiness
    DatabaseReadiness database;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response ping() {
        if (database.call().getStatus() == HealthCheckResponse.Status.UP) {
            return Response.ok(Map.of("status", "ok")).header("Cache-Control", "no-store").build();
        }
        return Response.status(503).type("application/problem+json").header("Retry-After", "5")
                .header("Cache-Control", "no-store")
                .entity(Map.of("type", "urn:qaldy:problem:database-unreachable", "title", "Database unreachable",
                        "status", 503, "detail", "The control plane cannot reach its database; changes wait until it is back."))
                .build();
    }
}
