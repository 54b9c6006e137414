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
 * What the control plane said about (app, person). A 4xx is an answer, not a failure: 404 is an
 * unknown app; any other 4xx, or an unreadable 2xx, is {@link Kind#UNUSABLE}, never an allow.
 *
 * @param sharingVersion for allow and deny; -1 otherwise
 * @param detail         for logs only
 * @param accountId      the app owner's account for the cap; {@link #NO_ACCOUNT} when none was named
 */
public record AccessAnswer(Kind kind, long sharingVersion, String detail, long accountId) {

    public static final long NO_ACCOUNT = -1;

    public enum Kind {
        ALLOW, DENY, UNKNOWN_APP, UNUSABLE
    }

    public AccessAnswer {
        Objects.requireNonNull(kind, "kind");
    }

    public AccessAnswer(Kind kind, long sharingVersion, String detail) {
        this(kind, sharingVersion, detail, NO_ACCOUNT);
    }

    /**
     * Reads the answer to {@code GET /api/v1/internal/access?app=A&person=P}:
     * {@code 200 {"app","personId","decision","sharingVersion","accountId"}}, or 404. Without a positive
     * {@code accountId} it names {@link #NO_ACCOUNT}, and the cap step refuses to serve.
     *
     * @throws ControlPlaneUnavailable for a 5xx
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
