package dev.qaldy.gate.platform;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;

/**
 * What every answer of the control plane about one app shares (access, visibility): a 5xx is a
 * failure, a 404 an unknown app; any other status, or a body that is not about this app with a
 * whole {@code sharingVersion}, is unusable and never read as an allow.
 *
 * @param json      the body, for the answer's own fields; null unless {@link #usable()}
 * @param accountId the app owner's account for the cap; {@link #NO_ACCOUNT} when none (or no positive one) was named
 * @param why       for logs: why it is unknown or unusable; null when usable
 */
public record AppAnswer(JsonObject json, boolean unknownApp, long sharingVersion, long accountId, String why) {

    public static final long NO_ACCOUNT = -1;

    /**
     * @param what for the failure's message, e.g. {@code access}
     * @throws ControlPlaneUnavailable for a 5xx
     */
    public static AppAnswer read(int status, String body, String app, String what) throws ControlPlaneUnavailable {
        if (status >= 500) {
            throw new ControlPlaneUnavailable(what + " answered HTTP " + status);
        }
        if (status == 404) {
            return new AppAnswer(null, true, -1, NO_ACCOUNT, "HTTP 404");
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
        return new AppAnswer(json, false, version.longValue(), account, null);
    }

    public boolean usable() {
        return json != null;
    }

    /** The string at {@code key}; null when none or another type. */
    public String text(String key) {
        return json.get(key) instanceof JsonString s ? s.getString() : null;
    }

    private static AppAnswer unusable(String why) {
        return new AppAnswer(null, false, -1, NO_ACCOUNT, why);
    }
}
