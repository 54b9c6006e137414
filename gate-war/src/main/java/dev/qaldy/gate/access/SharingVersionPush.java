package dev.qaldy.gate.access;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.InternalCall;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.platform.RefusalLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.logging.Logger;

/**
 * {@code POST /.qaldy/internal/sharing-versions} on the internal listener (any Host), with the service token: the control
 * plane tells this gate, before it answers a share, revoke or delete, that an app's sharing
 * changed. Body {@code {"app":"A","sharingVersion":N,"sequence":S}} ({@code sequence}, the change's
 * place in the sharing-changes feed, is optional and only logged: the gate's cursor moves by its
 * pulls, {@link GateSync}); answers 204 once every copy of the app is gone, 401 without the token,
 * 400 for a body it cannot read, 405 for another method. A push is applied exactly as a pulled
 * change ({@link SharingChanges}) but is not a sync: it says nothing of other changes.
 */
@ApplicationScoped
public class SharingVersionPush {

    /** The path, matched exactly on the raw request URI. */
    public static final String PATH = "/.qaldy/internal/sharing-versions";

    /** The largest body read. */
    static final int MAX_BODY_BYTES = InternalCall.MAX_BODY_BYTES;

    @Inject
    SharingChanges changes;

    @Inject
    CellSecrets secrets;

    @Inject
    RefusalLog refusals;

    @Inject
    Logger log;

    /** A readable push; {@code sequence} is -1 when the control plane did not send one. */
    record Push(String app, long sharingVersion, long sequence) {

        Push(String app, long sharingVersion) {
            this(app, sharingVersion, -1);
        }
    }

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!InternalCall.admit(req, res, secrets, refusals, log, "a sharing push")) {
            return;
        }
        Push push = read(req.getInputStream());
        if (push == null) {
            Pages.send(req, res, Page.badRequest(
                    "A sharing push is a JSON object with an app name and a whole, non-negative sharingVersion."));
            return;
        }
        changes.apply(push.app(), push.sharingVersion());
        InternalCall.done(res);
    }

    /** The push in {@code body}, or null when it is too long or not {@code {"app":"A","sharingVersion":N}}. */
    static Push read(InputStream body) throws IOException {
        JsonObject json = InternalCall.readObject(body);
        if (json == null) {
            return null;
        }
        String app = json.get("app") instanceof JsonString s ? s.getString() : null;
        if (!AppLabel.valid(app) || !(json.get("sharingVersion") instanceof JsonNumber version) || !version.isIntegral()) {
            return null;
        }
        long value;
        long sequence = -1;
        try {
            value = version.longValueExact();
            if (json.containsKey("sequence")) {
                if (!(json.get("sequence") instanceof JsonNumber seq) || !seq.isIntegral() || seq.longValueExact() < 0) {
                    return null;
                }
                sequence = seq.longValueExact();
            }
        } catch (ArithmeticException e) {
            return null;
        }
        return value < 0 ? null : new Push(app, value, sequence);
    }
}
