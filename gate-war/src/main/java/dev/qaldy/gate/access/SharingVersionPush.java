package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.AppName;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.sites.PublicSites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /.qaldy/internal/sharing-versions} on any Host, with the service token: the control
 * plane tells this gate, before it answers a share, revoke or delete, that an app's sharing
 * changed. Body {@code {"app":"A","sharingVersion":N}}; answers 204 once every copy of the app is
 * gone, 401 without the token, 400 for a body it cannot read, 405 for another method.
 */
@ApplicationScoped
public class SharingVersionPush {

    /** The path, matched exactly on the raw request URI. */
    public static final String PATH = "/.qaldy/internal/sharing-versions";

    /** The largest body read; a push is a few dozen bytes. */
    static final int MAX_BODY_BYTES = 4096;

    @Inject
    AccessCheck access;

    @Inject
    CellSecrets secrets;

    @Inject
    PublicSites sites;

    @Inject
    Logger log;

    /** A readable push. */
    record Push(String app, long sharingVersion) {
    }

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!"POST".equals(req.getMethod())) {
            res.setHeader("Allow", "POST");
            Pages.send(req, res, Page.methodNotAllowed());
            return;
        }
        boolean trusted;
        try {
            trusted = secrets.isServiceToken(req.getHeader(ControlPlane.SERVICE_TOKEN_HEADER));
        } catch (IllegalStateException e) {
            log.log(Level.WARNING, "gate: cannot check a sharing push: {0}", e.getMessage());
            Pages.send(req, res, Page.unavailable());
            return;
        }
        if (!trusted) {
            log.log(Level.WARNING, "gate: refused a sharing push from {0} without the service token", req.getRemoteAddr());
            Pages.send(req, res, Page.serviceUnauthorized());
            return;
        }
        Push push = read(req.getInputStream());
        if (push == null) {
            Pages.send(req, res, Page.badRequest(
                    "A sharing push is a JSON object with an app name and a whole, non-negative sharingVersion."));
            return;
        }
        sites.sharingChanged(push.app(), push.sharingVersion()); // first: a former site is not public a moment longer
        access.sharingChanged(push.app(), push.sharingVersion());
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        res.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }

    /** The push in {@code body}, or null when it is too long or not {@code {"app":"A","sharingVersion":N}}. */
    static Push read(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
        if (bytes.length > MAX_BODY_BYTES) {
            return null;
        }
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            json = reader.readObject();
        } catch (RuntimeException e) {
            return null;
        }
        String app = json.get("app") instanceof JsonString s ? s.getString() : null;
        if (!AppName.valid(app) || !(json.get("sharingVersion") instanceof JsonNumber version) || !version.isIntegral()) {
            return null;
        }
        long value;
        try {
            value = version.longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
        return value < 0 ? null : new Push(app, value);
    }
}
