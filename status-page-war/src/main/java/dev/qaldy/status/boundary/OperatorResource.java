package dev.qaldy.status.boundary;

import dev.qaldy.status.incidents.control.Incidents;
import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.incidents.entity.IncidentStatus;
import dev.qaldy.status.operators.control.OperatorAccount;
import dev.qaldy.status.operators.control.OperatorSessions;
import dev.qaldy.status.operators.control.OperatorSessions.OperatorSession;
import dev.qaldy.status.operators.control.SameOrigin;
import dev.qaldy.status.operators.control.SignInThrottle;
import dev.qaldy.status.platform.Problem;
import dev.qaldy.status.platform.ProblemMapper;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParser;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.time.Clock;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The operator's API: sign in with the status page's own credentials (the cell is never asked),
 * then open, update and resolve incidents. Every change needs the session cookie, the session's
 * CSRF token in {@code X-CSRF-Token}, and a same-origin request.
 */
@Path("operator")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OperatorResource {

    /** The header that carries the session's CSRF token. */
    public static final String CSRF_HEADER = "X-CSRF-Token";

    @Inject
    OperatorAccount account;

    @Inject
    OperatorSessions sessions;

    @Inject
    SignInThrottle throttle;

    @Inject
    Incidents incidents;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Context
    HttpServletRequest request;

    /** Signs in with {@code {"user":"…","password":"…"}}; answers the session's CSRF token and sets the cookie. */
    @POST
    @Path("session")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signIn(String json) {
        JsonObject body = object(json);
        sameOrigin();
        String client = request.getRemoteAddr();
        long wait = throttle.secondsLocked(client);
        if (wait > 0) {
            throw new Problem(429, "too-many-attempts", "Too many failed sign-ins. Try again in " + wait + " seconds.", wait);
        }
        String user = text(body, "user");
        if (!account.matches(user, text(body, "password"))) {
            throttle.failed(client);
            log.log(Level.INFO, "status page: a sign-in as \"{0}\" from {1} was refused", new Object[] {user, client});
            throw new Problem(401, "sign-in", "The user name or the password is wrong.");
        }
        throttle.succeeded(client);
        OperatorSession session = sessions.open(user);
        log.log(Level.INFO, "status page: operator \"{0}\" signed in from {1}", new Object[] {user, client});
        return Response.ok(sessionJson(session))
                .header("Set-Cookie", SessionCookie.set(session.token(), cookiePath(), request.isSecure()))
                .build();
    }

    /** The signed-in operator and the CSRF token, or 401. */
    @GET
    @Path("session")
    public JsonObject session(@CookieParam(SessionCookie.NAME) String token) {
        return sessionJson(signedIn(token));
    }

    /** Signs out. */
    @DELETE
    @Path("session")
    public Response signOut(@CookieParam(SessionCookie.NAME) String token) {
        changing(token);
        sessions.close(token);
        return Response.noContent().header("Set-Cookie", SessionCookie.clear(cookiePath(), request.isSecure())).build();
    }

    /** Opens an incident: {@code {"name":"…","status":"investigating|identified|monitoring","message":"…"}}. */
    @POST
    @Path("incidents")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@CookieParam(SessionCookie.NAME) String token, String json) {
        JsonObject body = object(json);
        OperatorSession session = changing(token);
        IncidentStatus status = status(body, false);
        Incident incident = valid(() -> incidents.create(text(body, "name"), status, text(body, "message"), clock.millis()));
        log.log(Level.INFO, "status page: operator \"{0}\" opened incident {1} \"{2}\"",
                new Object[] {session.user(), incident.id(), incident.name()});
        return Response.status(201).entity(IncidentJson.of(incident)).build();
    }

    /** Posts a message on an open incident: {@code {"status":"…","message":"…"}}; status {@code resolved} resolves it. */
    @POST
    @Path("incidents/{id}/updates")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject update(@CookieParam(SessionCookie.NAME) String token, @PathParam("id") long id, String json) {
        JsonObject body = object(json);
        OperatorSession session = changing(token);
        IncidentStatus status = status(body, true);
        Incident incident = valid(() -> incidents.update(id, status, text(body, "message"), clock.millis()));
        log.log(Level.INFO, "status page: operator \"{0}\" updated incident {1} ({2})",
                new Object[] {session.user(), id, status.json()});
        return IncidentJson.of(incident);
    }

    /** Resolves an open incident: {@code {"message":"…"}} (optional; a default message otherwise). */
    @POST
    @Path("incidents/{id}/resolve")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject resolve(@CookieParam(SessionCookie.NAME) String token, @PathParam("id") long id, String json) {
        JsonObject body = object(json);
        OperatorSession session = changing(token);
        String message = text(body, "message");
        String text = message == null || message.isBlank() ? "This incident is resolved." : message;
        Incident incident = valid(() -> incidents.update(id, IncidentStatus.RESOLVED, text, clock.millis()));
        log.log(Level.INFO, "status page: operator \"{0}\" resolved incident {1}", new Object[] {session.user(), id});
        return IncidentJson.of(incident);
    }

    private OperatorSession signedIn(String token) {
        return sessions.find(token).orElseThrow(() -> new Problem(401, "signed-out", "Sign in first."));
    }

    /** The session of a request that changes something: same origin, signed in, right CSRF token. */
    private OperatorSession changing(String token) {
        sameOrigin();
        OperatorSession session = signedIn(token);
        if (!session.csrfMatches(request.getHeader(CSRF_HEADER))) {
            throw new Problem(403, "csrf", "This request lacks the page's security token. Reload the page and try again.");
        }
        return session;
    }

    private void sameOrigin() {
        if (!SameOrigin.allows(request.getHeader("Origin"), request.getHeader("Sec-Fetch-Site"), request.getHeader("Host"))) {
            throw new Problem(403, "cross-origin", "Requests from other sites are refused.");
        }
    }

    private String cookiePath() {
        String path = request.getContextPath();
        return path == null || path.isEmpty() ? "/" : path;
    }

    private static JsonObject sessionJson(OperatorSession session) {
        return Json.createObjectBuilder()
                .add("user", session.user())
                .add("csrf_token", session.csrfToken())
                .build();
    }

    private static IncidentStatus status(JsonObject body, boolean resolvedAllowed) {
        String word = text(body, "status");
        IncidentStatus status = IncidentStatus.of(word == null ? "" : word)
                .orElseThrow(() -> Problem.badRequest("Choose a status: investigating, identified, monitoring"
                        + (resolvedAllowed ? " or resolved." : ".")));
        if (status == IncidentStatus.RESOLVED && !resolvedAllowed) {
            throw Problem.badRequest("A new incident cannot be resolved already.");
        }
        return status;
    }

    private static Incident valid(Supplier<Incident> change) {
        try {
            return change.get();
        } catch (Incidents.AlreadyResolved e) {
            throw new Problem(409, "resolved", "This incident is already resolved.");
        } catch (NoSuchElementException e) {
            throw Problem.notFound("There is no such incident.");
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest(e.getMessage());
        }
    }

    /**
     * The request's body as a JSON object, read here rather than by the JAX-RS runtime (which
     * answers an array or a parse error with a bare 500 before any mapper): empty → null (each
     * caller then says "Send a JSON object."); not JSON, or JSON but not an object → 400 bad-json.
     */
    static JsonObject object(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try (JsonParser parser = Json.createParser(new StringReader(json))) {
            parser.next();
            JsonValue value = parser.getValue();
            if (parser.hasNext()) {
                throw new Problem(400, "bad-json", "The request's body has more after its JSON value; nothing was changed."
                        + " Send one JSON object with the fields this request takes.");
            }
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                throw new Problem(400, "bad-json", "The request's body is JSON but not an object; nothing was changed."
                        + " Send a JSON object with the fields this request takes.");
            }
            return value.asJsonObject();
        } catch (JsonException e) {
            throw new Problem(400, "bad-json", ProblemMapper.badJsonTitle(e));
        }
    }

    private static String text(JsonObject body, String field) {
        if (body == null) {
            throw Problem.badRequest("Send a JSON object.");
        }
        JsonValue value = body.get(field);
        return value != null && value.getValueType() == JsonValue.ValueType.STRING ? body.getString(field) : null;
    }
}
