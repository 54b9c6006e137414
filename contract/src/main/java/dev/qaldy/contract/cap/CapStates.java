package dev.qaldy.contract.cap;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.qaldy.contract.keys.CellJws;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.CellSigningKey;
import dev.qaldy.contract.session.InvalidTokenException;
import java.util.Date;
import java.util.Map;

/**
 * Cap states as the cell's JWS ({@link CellJws}): {@code typ=qaldy-cap+jwt}; claims
 * {@code sub=<account id>, period, capCents, spentMillicents, asOfMs,
 * prices: {requestMillicents, cpuMsMillicents}, issuedAtMs, seq, iat}. Only signature, type and
 * shape are checked here; which states to take is {@link CapKeeper}'s rule.
 */
public final class CapStates {

    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-cap+jwt");
    public static final int MAX_LENGTH = CellJws.MAX_LENGTH;

    private CapStates() {
    }

    public static String sign(CapState state, CellSigningKey key) {
        return CellJws.sign(TYPE, new JWTClaimsSet.Builder()
                .subject(Long.toString(state.accountId()))
                .claim("period", state.period())
                .claim("capCents", state.capCents())
                .claim("spentMillicents", state.spentMillicents())
                .claim("asOfMs", state.asOfMs())
                .claim("prices", Map.of("requestMillicents", state.prices().requestMillicents(),
                        "cpuMsMillicents", state.prices().cpuMsMillicents()))
                .claim("issuedAtMs", state.issuedAtMs())
                .claim("seq", state.sequence())
                .issueTime(new Date(state.issuedAtMs())), key);
    }

    /** @throws InvalidTokenException when it is not a well-formed cap state signed with one of {@code keys} */
    public static CapState verify(String jws, CellPublicKeys keys) throws InvalidTokenException {
        return CellJws.verify(jws == null ? null : jws.trim(), TYPE, keys, "cap state", claims -> {
            Map<String, Object> prices = claims.getJSONObjectClaim("prices");
            if (claims.getSubject() == null || prices == null) {
                throw new InvalidTokenException("a cap state without an account or prices");
            }
            return new CapState(Long.parseLong(claims.getSubject()), claims.getStringClaim("period"),
                    number(claims.getClaim("capCents")), number(claims.getClaim("spentMillicents")),
                    number(claims.getClaim("asOfMs")),
                    new Prices(number(prices.get("requestMillicents")), number(prices.get("cpuMsMillicents"))),
                    number(claims.getClaim("issuedAtMs")), number(claims.getClaim("seq")));
        });
    }

    private static long number(Object value) {
        if (value instanceof Long || value instanceof Integer) {
            return ((Number) value).longValue();
        }
        if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())
                && Math.abs(number.doubleValue()) < 9.0e15) {
            return number.longValue();
        }
        throw new IllegalArgumentException("not a whole number: " + value);
    }
}
