package dev.qaldy.control.people.entity;

import java.time.Instant;

/**
 * A freshly signed session as handed to a client.
 *
 * @param token     the compact ES256 JWS
 * @param expiresAt when the token stops being accepted
 */
public record SignedSession(String token, Instant expiresAt) {
}
