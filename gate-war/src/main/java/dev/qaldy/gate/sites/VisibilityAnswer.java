package dev.qaldy.gate.sites;

import dev.qaldy.gate.platform.AppAnswer;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import java.util.Objects;

/**
 * Whether anyone may open an app without signing in, as the control plane said. Only a well-formed
 * {@code "visibility":"public"} for this very app is {@link Kind#PUBLIC}; anything else unreadable is
 * {@link Kind#UNUSABLE}, never public.
 *
 * @param sharingVersion for public and private; -1 otherwise
 * @param accountId      the account whose cap the app counts against; {@link #NO_ACCOUNT} when none was named
 * @param detail         for logs only
 */
public record VisibilityAnswer(Kind kind, long sharingVersion, long accountId, String detail) {

    public static final long NO_ACCOUNT = AppAnswer.NO_ACCOUNT;

    public enum Kind {
        PUBLIC, PRIVATE, UNKNOWN_APP, UNUSABLE
    }

    public VisibilityAnswer {
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * Reads the answer to {@code GET /api/v1/internal/apps/A/visibility}:
     * {@code 200 {"app","kind","visibility":"public"|"private","sharingVersion","accountId"}}, or 404.
     *
     * @throws ControlPlaneUnavailable for a 5xx
     */
    public static VisibilityAnswer read(int status, String body, String app) throws ControlPlaneUnavailable {
        AppAnswer answer = AppAnswer.read(status, body, app, "visibility");
        if (answer.unknownApp()) {
            return new VisibilityAnswer(Kind.UNKNOWN_APP, -1, NO_ACCOUNT, answer.why());
        }
        if (!answer.usable()) {
            return unusable(answer.why());
        }
        String visibility = answer.text("visibility");
        return switch (visibility == null ? "" : visibility) {
            case "public" -> new VisibilityAnswer(Kind.PUBLIC, answer.sharingVersion(), answer.accountId(), "public");
            case "private" -> new VisibilityAnswer(Kind.PRIVATE, answer.sharingVersion(), answer.accountId(), "private");
            default -> unusable("unknown visibility " + visibility);
        };
    }

    private static VisibilityAnswer unusable(String detail) {
        return new VisibilityAnswer(Kind.UNUSABLE, -1, NO_ACCOUNT, detail);
    }
}
