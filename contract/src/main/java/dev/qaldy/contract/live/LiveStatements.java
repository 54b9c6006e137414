package dev.qaldy.contract.live;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.SessionTokens;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.text.ParseException;
import java.time.Instant;
import java.util.Date;

/**
 * {@link LiveStatement}s as ES256 JWS signed with the cell's key, as bundle seals and cap states
 * are. Header {@code typ=qaldy-live+jwt}; claims {@code iss=qaldy-cell, sub=<app>, seq, iat} and
 * either {@code version, sha256} (live) or {@code gone=true} (a tombstone); {@code iat} in
 * milliseconds as {@code iatMs} too, since JWT's {@code iat} has whole seconds. {@link #verify}
 * checks signature, type, issuer and shape; which statements a host takes (sequence, age, clock
 * skew) is the host's rule.
 */
public final class LiveStatements {

    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-live+jwt");
    /** Longest statement even parsed, in characters. */
    public static final int MAX_LENGTH = 4096;

    private LiveStatements() {
    }

    /** Signs a statement; returns the compact JWS. */
    public static String sign(LiveStatement statement, ECPrivateKey key) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(SessionTokens.ISSUER)
                .subject(statement.app())
                .claim("seq", statement.sequence())
                .claim("iatMs", statement.issuedAt().toEpochMilli())
                .issueTime(Date.from(statement.issuedAt()));
        if (statement.gone()) {
            claims.claim("gone", true);
        } else {
            claims.claim("version", statement.version()).claim("sha256", statement.sha256());
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE).build(), claims.build());
        try {
            jwt.sign(new ECDSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a live statement", e);
        }
        return jwt.serialize();
    }

    /**
     * Verifies a statement's signature, type and issuer, and reads it.
     *
     * @throws InvalidTokenException when it is not a well-formed live statement signed with {@code key}
     */
    public static LiveStatement verify(String jws, ECPublicKey key) throws InvalidTokenException {
        if (jws == null || jws.isEmpty() || jws.length() > MAX_LENGTH) {
            throw new InvalidTokenException("missing or oversized live statement");
        }
        try {
            SignedJWT jwt = SignedJWT.parse(jws);
            if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm()) || !TYPE.equals(jwt.getHeader().getType())) {
                throw new InvalidTokenException("not a live statement");
            }
            if (!jwt.verify(new ECDSAVerifier(key))) {
                throw new InvalidTokenException("bad live statement signature");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Long sequence = claims.getLongClaim("seq");
            Long issuedAtMs = claims.getLongClaim("iatMs");
            if (!SessionTokens.ISSUER.equals(claims.getIssuer()) || claims.getSubject() == null || sequence == null
                    || issuedAtMs == null || claims.getIssueTime() == null) {
                throw new InvalidTokenException("not a live statement of this cell: issuer or claims missing");
            }
            Instant issuedAt = Instant.ofEpochMilli(issuedAtMs);
            if (Boolean.TRUE.equals(claims.getBooleanClaim("gone"))) {
                if (claims.getClaim("version") != null || claims.getClaim("sha256") != null) {
                    throw new InvalidTokenException("a tombstone that names a version");
                }
                return LiveStatement.tombstone(claims.getSubject(), sequence, issuedAt);
            }
            Long version = claims.getLongClaim("version");
            if (version == null) {
                throw new InvalidTokenException("a live statement without a version");
            }
            return LiveStatement.live(claims.getSubject(), version, claims.getStringClaim("sha256"), sequence, issuedAt);
        } catch (ParseException | JOSEException | RuntimeException e) {
            throw new InvalidTokenException("unreadable live statement: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        }
    }
}
