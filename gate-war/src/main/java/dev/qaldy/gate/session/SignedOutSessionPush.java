package dev.qaldy.gate.session;

import dev.qaldy.gate.platform.InternalCall;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /.qaldy/internal/signed-out-sessions} on the internal listener (any Host), with the service token: the
 * control plane tells this gate, before it answers a sign-out, that a session token was signed
 * out. Body {@code {"tokenId":"…","expiresAt":<epoch ms>}}; answers 204 once the token is refused
 * here ({@link SignedOutSessions}), 401 without the token, 400 for a body it cannot read, 405 for
 * another method.
 */
@ApplicationScoped
public class SignedOutSessionPush {

    /** The path, matched exactly on the raw request URI. */
    public static final String PATH = "/.qaldy/internal/signed-out-sessions";

    /** Longest token id accepted (the control plane's are UUIDs, 36 characters). */
    static final int MAX_TOKEN_ID_LENGTH = 64;

    @Inject
    SignedOutSessions signedOut;

    @Inject
    InternalCall internal;

    @Inject
    Logger log;

    /** A readable push. */
    record Push(String tokenId, Instant expiresAt) {
    }

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Push push = internal.receive(req, res, "a sign-out push", SignedOutSessionPush::read,
                "A sign-out push is a JSON object with a tokenId and a whole expiresAt in epoch milliseconds.");
        if (push != null) {
            signedOut.add(push.tokenId(), push.expiresAt());
            log.log(Level.FINE, "gate: session {0} signed out", push.tokenId());
            InternalCall.done(res);
        }
    }

    /** The push in {@code body}, or null when it is too long or not {@code {"tokenId":"…","expiresAt":N}}. */
    static Push read(InputStream body) throws IOException {
        JsonObject json = InternalCall.readObject(body);
        String tokenId = json != null && json.get("tokenId") instanceof JsonString s ? s.getString() : null;
        if (tokenId == null || tokenId.isEmpty() || tokenId.length() > MAX_TOKEN_ID_LENGTH) {
            return null;
        }
        long millis = InternalCall.count(json, "expiresAt");
        return millis < 0 ? null : new Push(tokenId, Instant.ofEpochMilli(millis));
    }
}
