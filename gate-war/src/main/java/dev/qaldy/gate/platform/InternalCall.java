package dev.qaldy.gate.platform;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring;
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
 * the gate's internal listener only, any Host ({@code /.qaldy/internal/…};
 * {@link dev.qaldy.gate.routing.ListenerRoute}): POST only, the control-to-gate credential in
 * {@code X-Qaldy-Service-Token} required, a small JSON object as the body.
 */
public final class InternalCall {

    /** The largest body read; a push is a few dozen bytes. */
    public static final int MAX_BODY_BYTES = 4096;

    private InternalCall() {
    }

    /**
     * True when {@code req} is a POST with the control-to-gate credential; otherwise the refusal is
     * sent (405 with {@code Allow: POST}, 401 without it, 403 with another of the cell's, 503 while the
     * gate cannot read its own).
     *
     * @param what what the call is, for the log (e.g. "a sharing push")
     */
    public static boolean admit(HttpServletRequest req, HttpServletResponse res, CellSecrets secrets, RefusalLog refusals,
            Logger log, String what) throws IOException {
        if (!"POST".equals(req.getMethod())) {
            res.setHeader("Allow", "POST");
            Pages.send(req, res, Page.methodNotAllowed());
            return false;
        }
        ServiceKeyring.Verdict verdict;
        try {
            verdict = secrets.check(req.getHeader(ControlPlane.SERVICE_TOKEN_HEADER), ServiceDirection.CONTROL_TO_GATE);
        } catch (IllegalStateException e) {
            log.log(Level.WARNING, "gate: cannot check {0}: {1}", new Object[] {what, e.getMessage()});
            Pages.send(req, res, Page.unavailable());
            return false;
        }
        return refuse(verdict, req, res, secrets, refusals, what);
    }

    /**
     * Sends the refusal of a service call that {@code verdict} does not accept (401 for an unknown
     * credential; 403 for one of the cell's made for another direction, naming it in the log), logged
     * per address and minute ({@link RefusalLog}).
     *
     * @return whether the call is admitted
     */
    public static boolean refuse(ServiceKeyring.Verdict verdict, HttpServletRequest req, HttpServletResponse res,
            CellSecrets secrets, RefusalLog refusals, String what) throws IOException {
        switch (verdict) {
            case ACCEPTED -> {
                return true;
            }
            case WRONG_DIRECTION -> {
                String made = secrets.identify(req.getHeader(ControlPlane.SERVICE_TOKEN_HEADER)).map(ServiceDirection::fileName).orElse("?");
                refusals.refused(what + " with the " + made + " credential, which is not made for it", req.getRemoteAddr());
                Pages.send(req, res, Page.serviceForbidden());
            }
            default -> {
                refusals.refused(what + " without the service token", req.getRemoteAddr());
                Pages.send(req, res, Page.serviceUnauthorized());
            }
        }
        return false;
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
