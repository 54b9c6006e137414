package dev.qaldy.control.platform.boundary;

import dev.qaldy.contract.http.ProblemJson;
import dev.qaldy.control.platform.control.DatabaseOutage;
import dev.qaldy.control.platform.control.DatabaseUnreachable;
import dev.qaldy.control.platform.control.LockBusy;
import dev.qaldy.control.platform.control.LockWaits;
import dev.qaldy.control.platform.control.QaldyException;
import dev.qaldy.control.platform.control.TooManyAttempts;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one exception mapper: every error leaves as RFC 9457 {@code application/problem+json}
 * ({@code type, title, status, detail}, and a business exception's own extension members). Business exceptions say their own status and detail;
 * JAX-RS's own (unknown path, wrong method or media type) keep their status with a fixed detail;
 * a lost database connection is a 503 (the outage logged once, by {@link DatabaseOutage}); anything else is a 500 whose detail holds only a
 * correlation id, with the stack trace in the log. A lock wait that ran out (another transaction held
 * a row past the database's lock timeout) is a 503 "busy" with {@code Retry-After}, logged naming the
 * lock (issue 14: these were 500s while a leaked transaction held the billing row). Every detail
 * leaves as a sentence ({@link #sentence}: a capital first, a full stop last), whoever wrote it (issue 20).
 */
@Provider
@ApplicationScoped
public class ProblemMapper implements ExceptionMapper<Throwable> {

    /** The problem media type of RFC 9457. */
    public static final String PROBLEM_JSON = ProblemJson.MEDIA_TYPE;
    /** Seconds a client should wait before retrying while the database is unreachable. */
    static final int DATABASE_RETRY_SECONDS = 5;

    private static final Map<Integer, String> FIXED_DETAILS = Map.of(
            400, "The request is malformed.",
            404, "There is no such resource.",
            405, "This method is not allowed on this resource.",
            406, "The requested media type cannot be produced here.",
            415, "This content type is not accepted here.");

    /**
     * A problem about to be written.
     *
     * @param headers extra response headers, e.g. {@code Retry-After}
     */
    record Problem(int status, String type, String title, String detail, Map<String, Object> headers,
            Map<String, String> members) {

        Problem(int status, String type, String title, String detail, Map<String, Object> headers) {
            this(status, type, title, detail, headers, Map.of());
        }

        /** The RFC 9457 body, with the extension members after the standard ones. */
        String json() {
            JsonObjectBuilder body = Json.createObjectBuilder().add("type", type).add("title", title).add("status", status)
                    .add("detail", detail);
            members.forEach(body::add);
            return body.build().toString();
        }
    }

    @Inject
    Logger log;

    @Inject
    DatabaseOutage outage;

    @Override
    public Response toResponse(Throwable thrown) {
        Problem problem = describe(thrown);
        Response.ResponseBuilder response = Response.status(problem.status()).type(PROBLEM_JSON).entity(problem.json());
        problem.headers().forEach(response::header);
        return response.build();
    }

    /** Decides what the caller is told about {@code thrown}, and logs what they are not told. */
    Problem describe(Throwable thrown) {
        QaldyException business = businessCause(thrown);
        if (business != null) {
            Map<String, Object> headers = new LinkedHashMap<>();
            if (business instanceof TooManyAttempts tooMany) {
                headers.put(HttpHeaders.RETRY_AFTER, tooMany.retryAfterSeconds());
            }
            if (business instanceof LockBusy busy) {
                headers.put(HttpHeaders.RETRY_AFTER, busy.retryAfterSeconds());
                log.log(Level.WARNING, "answered 503: {0} could not be locked within the lock timeout", busy.lock());
            }
            if (business.status() == 413) {
                headers.put("Connection", "close");
            }
            return new Problem(business.status(), business.type(), business.title(), sentence(business.getMessage()), headers,
                    business.members());
        }
        if (thrown instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
            Response original = web.getResponse();
            int status = original.getStatus();
            Map<String, Object> headers = new LinkedHashMap<>();
            if (original.getHeaderString(HttpHeaders.ALLOW) != null) {
                headers.put(HttpHeaders.ALLOW, original.getHeaderString(HttpHeaders.ALLOW));
            }
            log.log(Level.FINE, "request refused with {0}: {1}", new Object[] {status, thrown});
            return new Problem(status, "about:blank", original.getStatusInfo().getReasonPhrase(),
                    FIXED_DETAILS.getOrDefault(status, "The request cannot be served."), headers);
        }
        String reference = UUID.randomUUID().toString();
        if (DatabaseUnreachable.behind(thrown)) {
            outage.lost(thrown);
            log.log(Level.FINE, "answered 503, database unreachable, reference {0}: {1}", new Object[] {reference, thrown});
            return new Problem(503, "about:blank", "Service Unavailable",
                    "Qaldy can't make changes right now; apps people already opened keep working. Please try again in a"
                            + " minute (reference " + reference + ").",
                    Map.of(HttpHeaders.RETRY_AFTER, DATABASE_RETRY_SECONDS));
        }
        if (LockWaits.ranOut(thrown)) {
            LockBusy busy = new LockBusy(LockWaits.table(thrown) == null ? "a row it needs"
                    : "a row of " + LockWaits.table(thrown));
            log.log(Level.WARNING, "answered 503, reference {0}: {1} could not be locked within the lock timeout: {2}",
                    new Object[] {reference, busy.lock(), thrown.toString()});
            return new Problem(busy.status(), busy.type(), busy.title(), busy.getMessage(),
                    Map.of(HttpHeaders.RETRY_AFTER, busy.retryAfterSeconds()));
        }
        log.log(Level.SEVERE, "unexpected error, reference " + reference, thrown);
        return new Problem(500, "about:blank", "Internal Server Error",
                "Something went wrong on our side (reference " + reference + ").", Map.of());
    }

    /**
     * {@code detail} as a sentence people read: its first letter a capital and a full stop at the
     * end (a business message may be written as a clause, "no app named x"); blank stays blank.
     */
    static String sentence(String detail) {
        if (detail == null || detail.isBlank()) {
            return "The request cannot be served.";
        }
        String text = detail.strip();
        if (Character.isLowerCase(text.charAt(0))) {
            text = Character.toUpperCase(text.charAt(0)) + text.substring(1);
        }
        char last = text.charAt(text.length() - 1);
        return last == '.' || last == '?' || last == '!' ? text : text + ".";
    }

    /** The business exception behind {@code thrown} (interceptors and JAX-RS may wrap it), or null. */
    static QaldyException businessCause(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 10; depth++) {
            if (current instanceof QaldyException business) {
                return business;
            }
            current = current.getCause();
        }
        return null;
    }
}
