package dev.qaldy.gate.sites;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
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

    public static final long NO_ACCOUNT = -1;

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
        if (status >= 500) {
            throw new ControlPlaneUnavailable("visibility answered HTTP " + status);
        }
        if (status == 404) {
            return new VisibilityAnswer(Kind.UNKNOWN_APP, -1, NO_ACCOUNT, "HTTP 404");
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
        if (!(json.get("sharingVersion") instanceof JsonNumber version) || !version.isIntegral()) {
            return unusable("no sharing version");
        }
        long account = json.get("accountId") instanceof JsonNumber a && a.isIntegral() && a.longValue() > 0
                ? a.longValue() : NO_ACCOUNT;
        String visibility = json.get("visibility") instanceof JsonString v ? v.getString() : null;
        if ("public".equals(visibility)) {
            return new VisibilityAnswer(Kind.PUBLIC, version.longValue(), account, "public");
        }
        if ("private".equals(visibility)) {
            return new VisibilityAnswer(Kind.PRIVATE, version.longValue(), account, "private");
        }
        return unusable("unknown visibility " + visibility);
    }

    private static VisibilityAnswer unusable(String detail) {
        return new VisibilityAnswer(Kind.UNUSABLE, -1, NO_ACCOUNT, detail);
    }
}
