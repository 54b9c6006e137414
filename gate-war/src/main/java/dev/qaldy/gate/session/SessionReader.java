package dev.qaldy.gate.session;

import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Finds and verifies a request's session, locally, with the cell's public key alone: the gate
 * never asks the API who someone is, so people signed in stay signed in while it is down.
 * An {@code Authorization: Bearer} token wins over the cookie; a bad Bearer token is not
 * rescued by a cookie. A session made on one app's origin (its token's audience) opens that app
 * only: anywhere else it is invalid. On an app's origin a cookie counts only with that app's own
 * session: a console session (no audience) opens an app only as {@code Authorization: Bearer}
 * (issue 16: with a real base domain, a sibling app can plant a cookie for the parent domain).
 * A token signed out ({@link SignedOutSessions}, pushed by the
 * control plane) is invalid, also when {@link VerifiedSessions} verified it before.
 */
public final class SessionReader {

    /** At most this many {@code qaldy_session} cookies are tried, bounding the work per request. */
    static final int MAX_COOKIES_TRIED = 4;
    private static final String BEARER = "Bearer ";

    private final CellPublicKeys key;
    private final Clock clock;
    private final VerifiedSessions verified;
    private final SignedOutSessions signedOut;

    /** Verifies every token in full. */
    public SessionReader(CellPublicKeys key, Clock clock) {
        this(key, clock, null);
    }

    /** Verifies through {@code verified} (tokens already verified with {@code key} and still unexpired); null: in full. */
    public SessionReader(CellPublicKeys key, Clock clock, VerifiedSessions verified) {
        this(key, clock, verified, null);
    }

    /**
     * Verifies through {@code verified} (null: in full) and refuses tokens listed in
     * {@code signedOut} (null: no list).
     */
    public SessionReader(CellPublicKeys key, Clock clock, VerifiedSessions verified, SignedOutSessions signedOut) {
        this.key = Objects.requireNonNull(key, "key");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.verified = verified;
        this.signedOut = signedOut;
    }

    /**
     * A session of the console and the API (a token without an audience).
     *
     * @param authorization the {@code Authorization} header, or null
     * @param cookieHeaders every {@code Cookie} header of the request
     */
    public SessionCheck read(String authorization, List<String> cookieHeaders) {
        return read(authorization, cookieHeaders, null);
    }

    /**
     * A session on {@code app}'s origin: the person's API session, or one made on this app's origin.
     *
     * @param app the app whose origin the request came to; null: the console's and the API's
     */
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

    /** The token of an {@code Authorization: Bearer <token>} header (scheme in any case), else null. */
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
