package dev.qaldy.gate.platform;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The common part of the gate's internal endpoints that the control plane calls by address, on
 * any Host ({@code /.qaldy/internal/…}): POST only, the service token in
 * {@code X-Qaldy-Service-Token} required, a small JSON object as the body.
 */
public final class InternalCall {

    /** The largest body read; a push is a few dozen bytes. */
    public static final int MAX_BODY_BYTES = 4096;

    private InternalCall() {
    }

    /**
     * True when {@code req} is a POST with the cell's service token; otherwise the refusal is sent
     * (405 with {@code Allow: POST}, 401 without the token, 503 while the gate cannot read the token).
     *
     * @param what what the call is, for the log (e.g. "a sharing push")
     */
    public static boolean admit(HttpServletRequest req, HttpServletResponse res, CellSecrets secrets, Logger log, String what)
            throws IOException {
        if (!"POST".equals(req.getMethod())) {
            res.setHeader("Allow", "POST");
            Pages.send(req, res, Page.methodNotAllowed());
            return false;
        }
        boolean trusted;
        try {
            trusted = secrets.isServiceToken(req.getHeader(ControlPlane.SERVICE_TOKEN_HEADER));
        } catch (IllegalStateException e) {
            log.log(Level.WARNING, "gate: cannot check {0}: {1}", new Object[] {what, e.getMessage()});
            Pages.send(req, res, Page.unavailable());
            return false;
        }
        if (!trusted) {
            log.log(Level.WARNING, "gate: refused {0} from {1} without the service token", new Object[] {what, req.getRemoteAddr()});
            Pages.send(req, res, Page.serviceUnauthorized());
        }
        return trusted;
    }

    /** The JSON object in {@code body}, or null when it is longer than {@link #MAX_BODY_BYTES} or not a JSON object. */
    public static JsonObject readObject(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
        if (bytes.length > MAX_BODY_BYTES) {
            return null;
        }
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            return reader.readObject();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Answers 204, not stored by anyone. */
    public static void done(HttpServletResponse res) {
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        res.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }
}
