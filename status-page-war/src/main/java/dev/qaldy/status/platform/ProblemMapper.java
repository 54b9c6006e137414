package dev.qaldy.status.platform;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every error of the JSON API as {@code application/problem+json}. Unknown errors become a 500
 * with a correlation id that is also in the log, and nothing else about them.
 */
@Provider
public class ProblemMapper implements ExceptionMapper<Throwable> {

    @Inject
    Logger log;

    @Override
    public Response toResponse(Throwable error) {
        if (error instanceof Problem problem) {
            Response.ResponseBuilder answer = answer(problem.status(), problem.type(), problem.getMessage(), null);
            if (problem.retryAfterSeconds() > 0) {
                answer.header("Retry-After", problem.retryAfterSeconds());
            }
            return answer.build();
        }
        if (error instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
            Response.StatusType status = web.getResponse().getStatusInfo();
            return answer(status.getStatusCode(), "http-" + status.getStatusCode(), status.getReasonPhrase(), null).build();
        }
        String id = UUID.randomUUID().toString();
        log.log(Level.SEVERE, "status page: unexpected error " + id, error);
        return answer(500, "internal", "Something went wrong on the status page.", id).build();
    }

    private static Response.ResponseBuilder answer(int status, String type, String title, String correlationId) {
        var body = Json.createObjectBuilder()
                .add("type", "urn:qaldy:status:" + type)
                .add("title", title == null ? "" : title)
                .add("status", status);
        if (correlationId != null) {
            body.add("correlationId", correlationId);
        }
        JsonObject json = body.build();
        Response.Status known = Response.Status.fromStatusCode(status);
        return Response.status(status, known == null ? "Error" : known.getReasonPhrase())
                .type("application/problem+json").entity(json.toString())
                .header("Cache-Control", "no-store");
    }
}
