package dev.qaldy.gate.session;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.time.Instant;
import java.util.Optional;

/**
 * What redeeming a one-time ticket gives: a session token and when it expires.
 *
 * @param token     the session JWS
 * @param expiresAt its expiry as the control plane states it
 */
public record RedeemedTicket(String token, Instant expiresAt) {

    /**
     * Reads the control plane's answer to {@code POST /api/v1/internal/tickets/redeem}.
     *
     * @return the token for a 2xx; empty for a 4xx (unknown, used, expired or other-app ticket)
     * @throws ControlPlaneUnavailable for a 5xx
     * @throws IllegalStateException for a 2xx whose body cannot be read, or a 1xx/3xx
     */
    static Optional<RedeemedTicket> read(int status, String body) throws ControlPlaneUnavailable {
        if (status >= 500) {
            throw new ControlPlaneUnavailable("ticket redeem answered HTTP " + status);
        }
        if (status >= 400) {
            return Optional.empty();
        }
        if (status < 200 || status > 299) {
            throw new IllegalStateException("ticket redeem answered HTTP " + status);
        }
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject json = reader.readObject();
            String token = json.getString("token");
            Instant expiresAt = Instant.parse(json.getString("expiresAt"));
            return Optional.of(new RedeemedTicket(token, expiresAt));
        } catch (RuntimeException e) {
            throw new IllegalStateException("unreadable ticket redeem answer: " + e.getClass().getSimpleName(), e);
        }
    }
}
