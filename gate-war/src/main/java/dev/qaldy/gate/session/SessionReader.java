package dev.qaldy.gate.session;

import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Finds and verifies a request's session locally, with the cell's public keys alone, so people stay
 * signed in while the API is down. A Bearer token wins over the cookie and is not rescued by one. A
 * session made on an app's origin opens that app only; on an app's origin a console session counts
 * only as Bearer, not as a cookie (issue 16: a sibling app can plant a parent-domain cookie). A
 * signed-out token ({@link SignedOutSessions}) is invalid, even if {@link VerifiedSessions} cached it.
 */
public final class SessionReader {

    /** Bounds the work per request. */
    static final int MAX_COOKIES_TRIED = 4;
    private static final String BEARER = "Bearer ";

    private final CellPublicKeys key;
    private final Clock clock;
    private final VerifiedSessions verified;
    private final SignedOutSessions signedOut;

    public SessionReader(CellPublicKeys key, Clock clock) {
        this(key, clock, null);
    }

    /** {@code verified}: a cache of tokens already verified with {@code key}; null: verify in full. */
    public SessionReader(CellPublicKeys key, Clock clock, VerifiedSessions verified) {
        this(key, clock, verified, null);
    }

    /** {@code verified} null: in full; {@code signedOut} null: no list. */
    public SessionReader(CellPublicKeys key, Clock clock, VerifiedSessions verified, SignedOutSessions signedOut) {
        this.key = Objects.requireNonNull(key, "key");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.verified = verified;
        this.signedOut = signedOut;
    }

    /** A session of the console and the API (a token without an audience). */
    public SessionCheck read(String authorization, List<String> cookieHeaders) {
        return read(authorization, cookieHeaders, null);
    }

    /** @param app the app whose origin the request came to; null: the console's and the API's */
    public SessionCheck read(String authorization, List<String> cookieHeaders, String app) {
        String bearer = bearerToken(authorization);
        if (bearer != null) {
            return verify(bearer, app, false);
        }
        List<String> tokens = SessionCookie.values(cookieHeaders, SessionCookie.NAME);
        if (tokens.isEmpty()) {
            return new SessionCheck.Missing();
        }
        SessionCheck last = new SessionCheck.Missing();
        for (String token : tokens.subList(0, Math.min(tokens.size(), MAX_COOKIES_TRIED))) {
            last = verify(token, app, true);
            if (last instanceof SessionCheck.Valid) {
                return last;
            }
        }
        return last;
    }

    private SessionCheck verify(String token, String app, boolean fromCookie) {
        try {
            Session session = verified == null ? SessionTokens.verify(token, key, clock) : verified.verify(token, key);
            if (signedOut != null && signedOut.contains(session.tokenId())) {
                return new SessionCheck.Invalid("this session was signed out");
            }
            if (app != null && fromCookie && session.audience() == null) {
                return new SessionCheck.Invalid("a console session in a cookie of an app's origin (it opens apps as Bearer only)");
            }
            boolean fits = app == null ? session.audience() == null : session.opens(app);
            return fits ? new SessionCheck.Valid(session) : new SessionCheck.Invalid("a session of another origin");
        } catch (InvalidTokenException e) {
            return new SessionCheck.Invalid(e.getMessage());
        }
    }

    /** Scheme in any case; null when not Bearer. */
    static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        // As trim() would, without the copies (issue 15: asked for every request).
        int start = 0;
        int end = authorization.length();
        while (start < end && authorization.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && authorization.charAt(end - 1) <= ' ') {
            end--;
        }
        if (end - start < BEARER.length() || !authorization.regionMatches(true, start, BEARER, 0, BEARER.length())) {
            return null;
        }
        start += BEARER.length();
        while (start < end && authorization.charAt(start) <= ' ') {
            start++;
        }
        return start == end ? null : authorization.substring(start, end);
    }
}
