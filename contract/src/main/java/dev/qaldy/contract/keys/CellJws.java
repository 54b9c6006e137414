package dev.qaldy.contract.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.qaldy.contract.session.InvalidTokenException;
import java.security.interfaces.ECPublicKey;
import java.text.ParseException;

/**
 * The rule for every JWS the cell signs (sessions, bundle seals, cap states, live records): ES256,
 * a {@code typ} per kind, the key's {@code kid}, issuer {@value #ISSUER}, at most
 * {@value #MAX_LENGTH} characters. A JWS without {@code kid} (signed before keys were named) is tried
 * against each published key; one naming an unpublished key is refused.
 */
public final class CellJws {

    public static final String ISSUER = "qaldy-cell";
    /** Characters: bounds the work done on bad input. */
    public static final int MAX_LENGTH = 4096;

    @FunctionalInterface
    public interface ClaimsReader<T> {
        T read(JWTClaimsSet claims) throws InvalidTokenException, ParseException;
    }

    private CellJws() {
    }

    /**
     * Signs {@code claims} with {@code iss} set.
     *
     * @throws IllegalStateException when the key cannot sign (not a P-256 key)
     */
    public static String sign(JOSEObjectType type, JWTClaimsSet.Builder claims, CellSigningKey key) {
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.ES256).type(type).keyID(key.kid()).build();
        SignedJWT jwt = new SignedJWT(header, claims.issuer(ISSUER).build());
        try {
            jwt.sign(new ECDSASigner(key.key()));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a " + type, e);
        }
        return jwt.serialize();
    }

    /**
     * Verifies {@code jws} as a {@code what} (e.g. "cap state", for the reason) of {@code type}, then
     * reads it with {@code reader}.
     *
     * @throws InvalidTokenException for anything but a well-signed JWS of this cell that {@code reader}
     *                               reads; the reason is for logs only
     */
    public static <T> T verify(String jws, JOSEObjectType type, CellPublicKeys keys, String what, ClaimsReader<T> reader)
            throws InvalidTokenException {
        if (jws == null || jws.isEmpty() || jws.length() > MAX_LENGTH) {
            throw new InvalidTokenException("missing or oversized " + what);
        }
        try {
            SignedJWT jwt = SignedJWT.parse(jws);
            JWSHeader header = jwt.getHeader();
            if (!JWSAlgorithm.ES256.equals(header.getAlgorithm()) || !type.equals(header.getType())) {
                throw new InvalidTokenException("not a " + what);
            }
            if (!signedByOneOf(jwt, header.getKeyID(), keys, what)) {
                throw new InvalidTokenException("bad " + what + " signature");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (!ISSUER.equals(claims.getIssuer())) {
                throw new InvalidTokenException("not a " + what + " of this cell: another issuer");
            }
            return reader.read(claims);
        } catch (ParseException | JOSEException | RuntimeException e) {
            throw new InvalidTokenException("unreadable " + what + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        }
    }

    private static boolean signedByOneOf(SignedJWT jwt, String kid, CellPublicKeys keys, String what)
            throws JOSEException, InvalidTokenException {
        if (kid != null) {
            ECPublicKey key = keys.byKid(kid);
            if (key == null) {
                throw new InvalidTokenException("a " + what + " signed with a key this cell does not publish");
            }
            return jwt.verify(new ECDSAVerifier(key));
        }
        for (ECPublicKey key : keys.all()) {
            if (jwt.verify(new ECDSAVerifier(key))) {
                return true;
            }
        }
        return false;
    }
}
