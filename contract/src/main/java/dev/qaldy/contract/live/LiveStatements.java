package dev.qaldy.contract.live;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.qaldy.contract.keys.CellJws;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.CellSigningKey;
import dev.qaldy.contract.session.InvalidTokenException;
import java.time.Instant;
import java.util.Date;

/**
 * {@link LiveStatement}s as the cell's JWS: {@code typ=qaldy-live+jwt}; claims {@code sub=<app>, seq,
 * iat, iatMs} (ms, as {@code iat} has whole seconds) and {@code version, sha256} or {@code gone=true}.
 * Which statements a host takes is the host's rule.
 */
public final class LiveStatements {

    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-live+jwt");
    public static final int MAX_LENGTH = CellJws.MAX_LENGTH;

    private LiveStatements() {
    }

    public static String sign(LiveStatement statement, CellSigningKey key) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(statement.app())
                .claim("seq", statement.sequence())
                .claim("iatMs", statement.issuedAt().toEpochMilli())
                .issueTime(Date.from(statement.issuedAt()));
        if (statement.gone()) {
            claims.claim("gone", true);
        } else {
            claims.claim("version", statement.version()).claim("sha256", statement.sha256());
        }
        return CellJws.sign(TYPE, claims, key);
    }

    /** @throws InvalidTokenException when it is not a well-formed live statement signed with one of {@code keys} */
    public static LiveStatement verify(String jws, CellPublicKeys keys) throws InvalidTokenException {
        return CellJws.verify(jws, TYPE, keys, "live statement", claims -> {
            Long sequence = claims.getLongClaim("seq");
            Long issuedAtMs = claims.getLongClaim("iatMs");
            if (claims.getSubject() == null || sequence == null || issuedAtMs == null || claims.getIssueTime() == null) {
                throw new InvalidTokenException("not a live statement of this cell: claims missing");
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
        });
    }
}
