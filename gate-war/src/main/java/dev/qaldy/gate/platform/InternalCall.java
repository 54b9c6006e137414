package dev.qaldy.gate.platform;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
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
 * What the gate's internal endpoints share ({@code /.qaldy/internal/…}, internal listener only,
 * {@link dev.qaldy.gate.routing.ListenerRoute}): POST, the control-to-gate credential, a small JSON body.
 */
@ApplicationScoped
public class InternalCall {

    /** A push is a few dozen bytes. */
    public static final int MAX_BODY_BYTES = 4096;

    @Inject
    CellSecrets secrets;

    @Inject
    RefusalLog refusals;

    @Inject
    Logger log;

    /**
     * Otherwise sends the refusal: 405 with {@code Allow: POST}, 401 without the credential, 403 with
     * another of the cell's, 503 while the gate cannot read its own.
     *
     * @param what for the log (e.g. "a sharing push")
     */
    public boolean admit(HttpServletRequest req, HttpServletResponse res, String what) throws IOException {
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
        return refuse(verdict, req, res, what);
    }

    /** 401 for an unknown credential, 403 for another direction's; logged per address and minute ({@link RefusalLog}). */
    public boolean refuse(ServiceKeyring.Verdict verdict, HttpServletRequest req, HttpServletResponse res, String what)
            throws IOException {
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

    /** A push's body as its value; null when it is not one. */
    @FunctionalInterface
    public interface BodyReader<T> {
        T read(InputStream body) throws IOException;
    }

    /**
     * An admitted call's body ({@link #admit}), read by {@code reader}; null when the gate has answered:
     * a refusal, or 400 with {@code unreadable} when {@code reader} found none. The caller applies it
     * and answers {@link #done}.
     */
    public <T> T receive(HttpServletRequest req, HttpServletResponse res, String what, BodyReader<T> reader, String unreadable)
            throws IOException {
        if (!admit(req, res, what)) {
            return null;
        }
        T body = reader.read(req.getInputStream());
        if (body == null) {
            Pages.send(req, res, Page.badRequest(unreadable));
        }
        return body;
    }

    /** The whole, non-negative number {@code json} holds at {@code key}; -1 when none, another type, a fraction or beyond a long. */
    public static long count(JsonObject json, String key) {
        if (!(json.get(key) instanceof JsonNumber number) || !number.isIntegral()) {
            return -1;
        }
        try {
            return Math.max(-1, number.longValueExact());
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    /** Null when over {@link #MAX_BODY_BYTES} or not a JSON object. */
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

    /** 204, {@code no-store}. */
    public static void done(HttpServletResponse res) {
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        res.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }
}
