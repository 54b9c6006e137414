package dev.qaldy.contract.session;

import java.time.Instant;
import java.util.Objects;

/**
 * A signed-in person as a verified session token says.
 *
 * @param email    lower case
 * @param tokenId  JWS {@code jti}
 * @param audience null for a console and API session; {@link SessionTokens#appAudience(String)} for
 *                 one made on an app's origin (a redeemed ticket), which opens that app only
 */
public record Session(long personId, String email, String tokenId, Instant issuedAt, Instant expiresAt, String audience) {

    public Session(long personId, String email, String tokenId, Instant issuedAt, Instant expiresAt) {
        this(personId, email, tokenId, issuedAt, expiresAt, null);
    }

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
