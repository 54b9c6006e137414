package dev.qaldy.contract.seal;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.qaldy.contract.keys.CellJws;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.CellSigningKey;
import dev.qaldy.contract.session.InvalidTokenException;
import java.util.Date;

/**
 * Bundle seals: the cell's JWS ({@link CellJws}, {@code typ=qaldy-seal+jwt}) over (app, version,
 * SHA-256, created-at). The runtime host serves a cached bundle only when its seal verifies and its
 * bytes hash to the sealed SHA-256 (seed: "a second sealed copy").
 */
public final class BundleSeals {

    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-seal+jwt");

    private BundleSeals() {
    }

    public static String sign(BundleSeal seal, CellSigningKey key) {
        return CellJws.sign(TYPE, new JWTClaimsSet.Builder()
                .subject(seal.app())
                .claim("version", seal.version())
                .claim("sha256", seal.sha256())
                .issueTime(Date.from(seal.createdAt())), key);
    }

    /** @throws InvalidTokenException when the seal is not one of this cell's */
    public static BundleSeal verify(String jws, CellPublicKeys keys) throws InvalidTokenException {
        return CellJws.verify(jws, TYPE, keys, "seal", claims -> {
            if (claims.getSubject() == null || claims.getIssueTime() == null || claims.getLongClaim("version") == null
                    || claims.getStringClaim("sha256") == null) {
                throw new InvalidTokenException("not a seal of this cell: claims missing");
            }
            return new BundleSeal(claims.getSubject(), claims.getLongClaim("version"), claims.getStringClaim("sha256"),
                    claims.getIssueTime().toInstant());
        });
    }
}
