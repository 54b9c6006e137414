package dev.qaldy.contract.session;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;

/**
 * Session tokens: ES256 JWS signed by the control plane with the cell's key, verified anywhere
 * with the public key alone, so the gate never asks the API who a person is.
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
    public static final String ISSUER = "qaldy-cell";
    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-session+jwt");
    /** Longest token we even try to parse, in characters: bounds the work done on bad input. */
    public static final int MAX_TOKEN_LENGTH = 4096;

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
    public static String sign(Session session, ECPrivateKey key) {
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder();
        if (session.audience() != null) {
            builder.audience(session.audience());
        }
        JWTClaimsSet claims = builder
                .issuer(ISSUER)
                .subject(Long.toString(session.personId()))
                .claim("email", session.email())
                .jwtID(session.tokenId())
                .issueTime(Date.from(session.issuedAt()))
                .expirationTime(Date.from(session.expiresAt()))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE).build(), claims);
        try {
            jwt.sign(new ECDSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a session token", e);
        }
        return jwt.serialize();
    }

    /**
     * Verifies a token's signature, type, issuer, expiry and issue time against {@code clock}.
     *
     * @return the session it carries
     * @throws InvalidTokenException for anything but a valid, unexpired token of this cell
     */
    public static Session verify(String token, ECPublicKey key, Clock clock) throws InvalidTokenException {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_LENGTH) {
            throw new InvalidTokenException("missing or oversized token");
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm()) || !TYPE.equals(jwt.getHeader().getType())) {
                throw new InvalidTokenException("not a session token");
            }
            if (!jwt.verify(new ECDSAVerifier(key))) {
                throw new InvalidTokenException("bad signature");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (!ISSUER.equals(claims.getIssuer()) || claims.getExpirationTime() == null
                    || claims.getIssueTime() == null || claims.getSubject() == null || claims.getJWTID() == null) {
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
        } catch (ParseException | JOSEException | RuntimeException e) {
            throw new InvalidTokenException("unreadable token: " + e.getClass().getSimpleName(), e);
        }
    }
}
