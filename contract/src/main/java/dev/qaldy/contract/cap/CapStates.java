package dev.qaldy.contract.cap;

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
import java.util.Map;

/**
 * Cap states as ES256 JWS signed with the cell's key. Header {@code typ=qaldy-cap+jwt}; claims
 * {@code iss=qaldy-cell, sub=<account id>, period, capCents, spentMillicents, asOfMs,
 * prices: {requestMillicents, cpuMsMillicents}, issuedAtMs, seq}, plus {@code iat} in seconds.
 * {@link #verify} checks the signature, the type and the shape only: which states the edge takes
 * (sequence, period, clock skew) is {@link CapKeeper}'s rule.
 */
public final class CapStates {

    static final JOSEObjectType TYPE = new JOSEObjectType("qaldy-cap+jwt");
    /** Longest state we even try to parse, in characters: bounds the work done on bad input. */
    public static final int MAX_LENGTH = 4096;

    private CapStates() {
    }

    /** Signs a state; returns the compact JWS. */
    public static String sign(CapState state, ECPrivateKey key) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(SessionTokens.ISSUER)
                .subject(Long.toString(state.accountId()))
                .claim("period", state.period())
                .claim("capCents", state.capCents())
                .claim("spentMillicents", state.spentMillicents())
                .claim("asOfMs", state.asOfMs())
                .claim("prices", Map.of("requestMillicents", state.prices().requestMillicents(),
                        "cpuMsMillicents", state.prices().cpuMsMillicents()))
                .claim("issuedAtMs", state.issuedAtMs())
                .claim("seq", state.sequence())
                .issueTime(new Date(state.issuedAtMs()))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE).build(), claims);
        try {
            jwt.sign(new ECDSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a cap state", e);
        }
        return jwt.serialize();
    }

    /**
     * Verifies a state's signature and type, and reads it.
     *
     * @throws InvalidTokenException when it is not a well-formed cap state signed with {@code key}
     */
    public static CapState verify(String jws, ECPublicKey key) throws InvalidTokenException {
        if (jws == null || jws.isEmpty() || jws.length() > MAX_LENGTH) {
            throw new InvalidTokenException("missing or oversized cap state");
        }
        try {
            SignedJWT jwt = SignedJWT.parse(jws.trim());
            if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm()) || !TYPE.equals(jwt.getHeader().getType())) {
                throw new InvalidTokenException("not a cap state");
            }
            if (!jwt.verify(new ECDSAVerifier(key))) {
                throw new InvalidTokenException("bad cap state signature");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (!SessionTokens.ISSUER.equals(claims.getIssuer()) || claims.getSubject() == null) {
                throw new InvalidTokenException("missing claims");
            }
            Map<String, Object> prices = claims.getJSONObjectClaim("prices");
            if (prices == null) {
                throw new InvalidTokenException("no prices");
            }
            return new CapState(Long.parseLong(claims.getSubject()), claims.getStringClaim("period"),
                    number(claims.getClaim("capCents")), number(claims.getClaim("spentMillicents")),
                    number(claims.getClaim("asOfMs")),
                    new Prices(number(prices.get("requestMillicents")), number(prices.get("cpuMsMillicents"))),
                    number(claims.getClaim("issuedAtMs")), number(claims.getClaim("seq")));
        } catch (ParseException | JOSEException | RuntimeException e) {
            throw new InvalidTokenException("unreadable cap state: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        }
    }

    /** A whole number claim; anything else (missing, fractional, text) is refused. */
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
