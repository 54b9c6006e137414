package dev.qaldy.contract.session;

import java.time.Instant;
import java.util.Objects;

/**
 * A signed-in person as a verified session token says: who, and until when.
 *
 * @param personId  the person's id in the control plane
 * @param email     the person's email, lower case
 * @param tokenId   the token's unique id (JWS {@code jti})
 * @param issuedAt  when the control plane signed it
 * @param expiresAt after this instant the token is refused
 */
public record Session(long personId, String email, String tokenId, Instant issuedAt, Instant expiresAt) {

    public Session {
        Objects.requireNonNull(email, "email");
        Objects.requireNonNull(tokenId, "tokenId");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (!expiresAt.isAfter(issuedAt)) {
            throw new IllegalArgumentException("a session must expire after it is issued");
        }
    }
}
