package dev.qaldy.gate.session;

import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.SessionTokens;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Finds and verifies a request's session, locally, with the cell's public key alone: the gate
 * never asks the API who someone is, so people signed in stay signed in while it is down.
 * An {@code Authorization: Bearer} token wins over the cookie; a bad Bearer token is not
 * rescued by a cookie.
 */
public final class SessionReader {

    /** At most this many {@code qaldy_session} cookies are tried, bounding the work per request. */
    static final int MAX_COOKIES_TRIED = 4;

    private final ECPublicKey key;
    private final Clock clock;
    private final VerifiedSessions verified;

    /** Verifies every token in full. */
    public SessionReader(ECPublicKey key, Clock clock) {
        this(key, clock, null);
    }

    /** Verifies through {@code verified} (tokens already verified with {@code key} and still unexpired); null: in full. */
    public SessionReader(ECPublicKey key, Clock clock, VerifiedSessions verified) {
        this.key = Objects.requireNonNull(key, "key");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.verified = verified;
    }

    /**
     * @param authorization the {@code Authorization} header, or null
     * @param cookieHeaders every {@code Cookie} header of the request
     */
    public SessionCheck read(String authorization, List<String> cookieHeaders) {
        String bearer = bearerToken(authorization);
        if (bearer != null) {
            return verify(bearer);
        }
        List<String> tokens = SessionCookie.values(cookieHeaders, SessionCookie.NAME);
        if (tokens.isEmpty()) {
            return new SessionCheck.Missing();
        }
        SessionCheck last = new SessionCheck.Missing();
        for (String token : tokens.subList(0, Math.min(tokens.size(), MAX_COOKIES_TRIED))) {
            last = verify(token);
            if (last instanceof SessionCheck.Valid) {
                return last;
            }
        }
        return last;
    }

    private SessionCheck verify(String token) {
        try {
            return new SessionCheck.Valid(verified == null ? SessionTokens.verify(token, key, clock) : verified.verify(token, key));
        } catch (InvalidTokenException e) {
            return new SessionCheck.Invalid(e.getMessage());
        }
    }

    /** The token of an {@code Authorization: Bearer <token>} header (scheme in any case), else null. */
    static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.trim();
        if (value.length() < 7 || !value.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return null;
        }
        String token = value.substring(7).trim();
        return token.isEmpty() ? null : token;
    }
}
