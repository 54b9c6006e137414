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
 * @param audience  {@code null} for a session of the console and the API; for a session made on an
 *                  app's origin (a redeemed ticket) {@link SessionTokens#appAudience(String)}: it
 *                  opens that app only, and the API refuses it
 */
public record Session(long personId, String email, String tokenId, Instant issuedAt, Instant expiresAt, String audience) {

    /** A session of the console and the API (no audience). */
    public Session(long personId, String email, String tokenId, Instant issuedAt, Instant expiresAt) {
        this(personId, email, tokenId, issuedAt, expiresAt, null);
    }

    /** Whether this session may be used on {@code app}'s origin: an API session anywhere, an app's session only there. */
    public boolean opens(String app) {
        return audience == null || audience.equals(SessionTokens.appAudience(app));
    }

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
