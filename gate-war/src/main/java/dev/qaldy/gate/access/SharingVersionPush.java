package dev.qaldy.gate.access;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.gate.platform.InternalCall;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;

/**
 * {@code POST /.qaldy/internal/sharing-versions} on the internal listener (any Host), with the service token: the control
 * plane tells this gate, before it answers a share, revoke or delete, that an app's sharing
 * changed. Body {@code {"app":"A","sharingVersion":N,"sequence":S}} ({@code sequence}, the change's
 * place in the sharing-changes feed, is optional and read only to be checked: the gate's cursor moves by its
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
    InternalCall internal;

    /** A readable push; {@code sequence} is {@link #NO_SEQUENCE} when the control plane did not send one. */
    record Push(String app, long sharingVersion, long sequence) {

        static final long NO_SEQUENCE = -1;

        Push(String app, long sharingVersion) {
            this(app, sharingVersion, NO_SEQUENCE);
        }
    }

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Push push = internal.receive(req, res, "a sharing push", SharingVersionPush::read,
                "A sharing push is a JSON object with an app name and a whole, non-negative sharingVersion.");
        if (push != null) {
            changes.apply(push.app(), push.sharingVersion());
            InternalCall.done(res);
        }
    }

    /** The push in {@code body}, or null when it is too long or not {@code {"app":"A","sharingVersion":N}}. */
    static Push read(InputStream body) throws IOException {
        JsonObject json = InternalCall.readObject(body);
        String app = json != null && json.get("app") instanceof JsonString s ? s.getString() : null;
        if (!AppLabel.valid(app)) {
            return null;
        }
        long version = InternalCall.count(json, "sharingVersion");
        boolean sequenced = json.containsKey("sequence");
        long sequence = sequenced ? InternalCall.count(json, "sequence") : Push.NO_SEQUENCE;
        return version < 0 || (sequenced && sequence < 0) ? null : new Push(app, version, sequence);
    }
}
