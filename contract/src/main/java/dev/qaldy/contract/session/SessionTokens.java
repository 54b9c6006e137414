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
 * Session tokens: the cell's JWS ({@link CellJws}) signed by the control plane, verified anywhere
 * with the published keys alone, so the gate never asks the API who a person is.
 * Shape: header {@code typ=qaldy-session+jwt}; claims {@code iss=qaldy-cell, sub=<person id>,
 * email, jti, iat, exp} (seconds since the epoch), and {@code aud=app:<name>} on a session made
 * on an app's origin (absent on the console's and the API's).
 */
public final class SessionTokens {

    /**
     * How far a token's {@code iat} may lie ahead of the verifier's clock (the cell's hosts' clocks
     * may differ a little); a token issued later than that is refused, as RFC 7519 allows.
     */
    public static final java.time.Duration MAX_CLOCK_SKEW = java.time.Duration.ofSeconds(60);

    /** The issuer every token of a cell carries. */
    public static final String ISSUER = CellJws.ISSUER;
    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-session+jwt");
    /** Longest token we even try to parse, in characters: bounds the work done on bad input. */
    public static final int MAX_TOKEN_LENGTH = CellJws.MAX_LENGTH;

    private SessionTokens() {
    }

    /** The audience of a session made on {@code app}'s origin: {@code app:<name>}. */
    public static String appAudience(String app) {
        return "app:" + app;
    }

    /**
     * Signs a session.
     *
     * @return the compact JWS
     * @throws IllegalStateException when the key cannot sign (not a P-256 key)
     */
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
     * Verifies a token's signature, type, issuer, expiry and issue time against {@code clock}.
     *
     * @return the session it carries
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
