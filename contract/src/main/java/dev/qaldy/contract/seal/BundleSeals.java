package dev.qaldy.contract.seal;

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
import java.util.Date;

/**
 * Bundle seals: ES256 JWS over (app, version, SHA-256, created-at), signed by the control plane
 * when a version is built. The runtime host serves a cached bundle only when its seal verifies
 * and its bytes hash to the sealed SHA-256 (seed: "a second sealed copy").
 */
public final class BundleSeals {

    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-seal+jwt");

    private BundleSeals() {
    }

    /** Signs a seal; returns the compact JWS. */
    public static String sign(BundleSeal seal, ECPrivateKey key) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(SessionTokens.ISSUER)
                .subject(seal.app())
                .claim("version", seal.version())
                .claim("sha256", seal.sha256())
                .issueTime(Date.from(seal.createdAt()))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE).build(), claims);
        try {
            jwt.sign(new ECDSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a bundle seal", e);
        }
        return jwt.serialize();
    }

    /**
     * Verifies a seal's signature, type and issuer, and reads it.
     *
     * @throws InvalidTokenException when the seal is not one of this cell's (another issuer, a claim missing)
     */
    public static BundleSeal verify(String jws, ECPublicKey key) throws InvalidTokenException {
        if (jws == null || jws.length() > 4096) {
            throw new InvalidTokenException("missing or oversized seal");
        }
        try {
            SignedJWT jwt = SignedJWT.parse(jws);
            if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm()) || !TYPE.equals(jwt.getHeader().getType())) {
                throw new InvalidTokenException("not a bundle seal");
            }
            if (!jwt.verify(new ECDSAVerifier(key))) {
                throw new InvalidTokenException("bad seal signature");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (!SessionTokens.ISSUER.equals(claims.getIssuer()) || claims.getSubject() == null || claims.getIssueTime() == null
                    || claims.getLongClaim("version") == null || claims.getStringClaim("sha256") == null) {
                throw new InvalidTokenException("not a seal of this cell: issuer or claims missing");
            }
            return new BundleSeal(claims.getSubject(), claims.getLongClaim("version"),
                    claims.getStringClaim("sha256"), claims.getIssueTime().toInstant());
        } catch (ParseException | JOSEException | RuntimeException e) {
            throw new InvalidTokenException("unreadable seal: " + e.getClass().getSimpleName(), e);
        }
    }
}
