package dev.qaldy.control.people.entity;

import java.time.Instant;

/**
 * A session token was signed out (its holder signed out through the API, or on an app's origin):
 * every gate must refuse the token from before the API answers until {@code expiresAt}, the
 * token's own expiry, after which it is refused anyway.
 *
 * @param tokenId   the token's id ({@code jti})
 * @param expiresAt the token's expiry ({@code exp})
 */
public record SessionSignedOut(String tokenId, Instant expiresAt) {
}
