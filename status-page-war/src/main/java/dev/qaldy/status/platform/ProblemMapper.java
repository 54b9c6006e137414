package dev.qaldy.status.platform;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParsingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every error of the JSON API as {@code application/problem+json}. A request body that is not
 * JSON (or not the JSON object asked for) is a 400 "bad-json" saying where the parser stopped,
 * whatever the server wraps the parser's error in. Unknown errors become a 500 with a correlation
 * id that is also in the log, and nothing else about them.
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
        JsonException json = badJson(error);
        if (json != null) {
            return answer(400, "bad-json", badJsonTitle(json), null).build();
        }
        if (error instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
            Response.StatusType status = web.getResponse().getStatusInfo();
            return answer(status.getStatusCode(), "http-" + status.getStatusCode(), status.getReasonPhrase(), null).build();
        }
        String id = UUID.randomUUID().toString();
        log.log(Level.SEVERE, "status page: unexpected error " + id, error);
        return answer(500, "internal", "Something went wrong on the status page.", id).build();
    }

    /** The JSON parser's error in {@code error}'s cause chain (Jersey throws it as is, RESTEasy wraps it), or null. */
    public static JsonException badJson(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof JsonException json) {
                return json;
            }
        }
        return null;
    }

    /** "The request's body is not a valid JSON object (stopped at line 1, column 2); nothing was changed.": no parser internals. */
    public static String badJsonTitle(JsonException json) {
        String where = json instanceof JsonParsingException parsing && parsing.getLocation() != null
                ? " (stopped at line " + parsing.getLocation().getLineNumber() + ", column "
                        + parsing.getLocation().getColumnNumber() + ")"
                : "";
        return "The request's body is not a valid JSON object" + where + "; nothing was changed. Send a JSON object"
                + " with the fields this request takes.";
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
