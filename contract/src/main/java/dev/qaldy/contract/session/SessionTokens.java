package dev.qaldy.contract.session;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.qaldy.contract.keys.CellJws;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.CellSigningKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;

/**
 * Session tokens: the cell's JWS ({@link CellJws}), verified with the published keys alone, so the
 * gate never asks the API who a person is. Header {@code typ=qaldy-session+jwt}; claims
 * {@code iss=qaldy-cell, sub=<person id>, email, jti, iat, exp} (epoch s), and {@code aud=app:<name>}
 * on a session made on an app's origin.
 */
public final class SessionTokens {

    /** How far a token's {@code iat} may lie ahead of the verifier's clock; later is refused (RFC 7519 allows it). */
    public static final java.time.Duration MAX_CLOCK_SKEW = java.time.Duration.ofSeconds(60);

    public static final String ISSUER = CellJws.ISSUER;
    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-session+jwt");
    /** Characters: bounds the work done on bad input. */
    public static final int MAX_TOKEN_LENGTH = CellJws.MAX_LENGTH;

    private SessionTokens() {
    }

    public static String appAudience(String app) {
        return "app:" + app;
    }

    /** @throws IllegalStateException when the key cannot sign (not a P-256 key) */
    public static String sign(Session session, CellSigningKey key) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder();
        if (session.audience() != null) {
            claims.audience(session.audience());
        }
        return CellJws.sign(TYPE, claims
                .subject(Long.toString(session.personId()))
                .claim("email", session.email())
                .jwtID(session.tokenId())
                .issueTime(Date.from(session.issuedAt()))
                .expirationTime(Date.from(session.expiresAt())), key);
    }

    /**
     * Verifies signature, type, issuer, expiry and issue time against {@code clock}.
     *
     * @throws InvalidTokenException for anything but a valid, unexpired token of this cell
     */
    public static Session verify(String token, CellPublicKeys keys, Clock clock) throws InvalidTokenException {
        return CellJws.verify(token, TYPE, keys, "session token", claims -> {
            if (claims.getExpirationTime() == null || claims.getIssueTime() == null || claims.getSubject() == null
                    || claims.getJWTID() == null) {
                throw new InvalidTokenException("missing claims");
            }
            if (claims.getAudience().size() > 1) {
                throw new InvalidTokenException("more than one audience");
            }
            Instant expiresAt = claims.getExpirationTime().toInstant();
            Instant now = clock.instant();
            if (!now.isBefore(expiresAt)) {
                throw new InvalidTokenException("expired");
            }
            if (claims.getIssueTime().toInstant().isAfter(now.plus(MAX_CLOCK_SKEW))) {
                throw new InvalidTokenException("issued in the future");
            }
            return new Session(Long.parseLong(claims.getSubject()), claims.getStringClaim("email"),
                    claims.getJWTID(), claims.getIssueTime().toInstant(), expiresAt,
                    claims.getAudience().isEmpty() ? null : claims.getAudience().get(0));
        });
    }
}
