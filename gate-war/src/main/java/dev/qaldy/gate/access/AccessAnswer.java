package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.util.Objects;

/**
 * What the control plane said about (app, person). Every 4xx is an answer, not a failure:
 * 404 is an unknown app, and any other 4xx, like a 2xx that cannot be read, is
 * {@link Kind#UNUSABLE} and never an allow.
 *
 * @param kind           what was said
 * @param sharingVersion the app's sharing version for allow and deny; -1 otherwise
 * @param detail         for logs only
 * @param accountId      the account whose spending cap the app counts against (its owner); {@link #NO_ACCOUNT}
 *                       when the answer named none
 */
public record AccessAnswer(Kind kind, long sharingVersion, String detail, long accountId) {

    /** No account named. */
    public static final long NO_ACCOUNT = -1;

    /** The kinds of answer. */
    public enum Kind {
        ALLOW, DENY, UNKNOWN_APP, UNUSABLE
    }

    public AccessAnswer {
        Objects.requireNonNull(kind, "kind");
    }

    /** An answer that names no account. */
    public AccessAnswer(Kind kind, long sharingVersion, String detail) {
        this(kind, sharingVersion, detail, NO_ACCOUNT);
    }

    /**
     * Reads the answer to {@code GET /api/v1/internal/access?app=A&person=P}
     * ({@code 200 {"app","personId","decision","sharingVersion","accountId"}}; unknown app: 404). An answer
     * without a whole, positive {@code accountId} is still read, naming {@link #NO_ACCOUNT}: the cap step
     * then refuses to serve, as for an account it cannot know.
     *
     * @throws ControlPlaneUnavailable for a 5xx: the control plane failed, it did not answer
     */
    public static AccessAnswer read(int status, String body, String app, long personId) throws ControlPlaneUnavailable {
        if (status >= 500) {
            throw new ControlPlaneUnavailable("access answered HTTP " + status);
        }
        if (status == 404) {
            return new AccessAnswer(Kind.UNKNOWN_APP, -1, "HTTP 404");
        }
        if (status != 200) {
            return unusable("HTTP " + status);
        }
        JsonObject json;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            json = reader.readObject();
        } catch (RuntimeException e) {
            return unusable("unreadable body: " + e.getClass().getSimpleName());
        }
        if (!app.equals(json.get("app") instanceof JsonString s ? s.getString() : null)) {
            return unusable("answer for another app");
        }
        if (!(json.get("personId") instanceof JsonNumber person) || !person.isIntegral()
                || person.longValue() != personId) {
            return unusable("answer for another person");
        }
        if (!(json.get("sharingVersion") instanceof JsonNumber version) || !version.isIntegral()) {
            return unusable("no sharing version");
        }
        long account = json.get("accountId") instanceof JsonNumber a && a.isIntegral() && a.longValue() > 0
                ? a.longValue() : NO_ACCOUNT;
        String decision = json.get("decision") instanceof JsonString d ? d.getString() : null;
        if ("allow".equals(decision)) {
            return new AccessAnswer(Kind.ALLOW, version.longValue(), "allow", account);
        }
        if ("deny".equals(decision)) {
            return new AccessAnswer(Kind.DENY, version.longValue(), "deny", account);
        }
        return unusable("unknown decision " + decision);
    }

    private static AccessAnswer unusable(String detail) {
        return new AccessAnswer(Kind.UNUSABLE, -1, detail);
    }
}
