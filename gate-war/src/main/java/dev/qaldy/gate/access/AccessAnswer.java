package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.AppAnswer;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.json.JsonNumber;
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

    public static final long NO_ACCOUNT = AppAnswer.NO_ACCOUNT;

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
        AppAnswer answer = AppAnswer.read(status, body, app, "access");
        if (answer.unknownApp()) {
            return new AccessAnswer(Kind.UNKNOWN_APP, -1, answer.why());
        }
        if (!answer.usable()) {
            return unusable(answer.why());
        }
        if (!(answer.json().get("personId") instanceof JsonNumber person) || !person.isIntegral() || person.longValue() != personId) {
            return unusable("answer for another person");
        }
        String decision = answer.text("decision");
        return switch (decision == null ? "" : decision) {
            case "allow" -> new AccessAnswer(Kind.ALLOW, answer.sharingVersion(), "allow", answer.accountId());
            case "deny" -> new AccessAnswer(Kind.DENY, answer.sharingVersion(), "deny", answer.accountId());
            default -> unusable("unknown decision " + decision);
        };
    }

    private static AccessAnswer unusable(String detail) {
        return new AccessAnswer(Kind.UNUSABLE, -1, detail);
    }
}
