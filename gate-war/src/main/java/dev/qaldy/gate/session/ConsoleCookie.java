package dev.qaldy.gate.session;

import java.util.List;

/**
 * The console's session cookie on the public origin (issue 20 item 4: a console session lives in
 * the browser, not in one tab). It holds the control plane's session token, which no script of the
 * page ever sees: {@code HttpOnly}; {@code SameSite=Strict}, so no other site's page, link or form
 * sends it; {@code Path=/}; host-only (no {@code Domain}), so {@code <app>.<base domain>} never
 * receives it; {@code Secure} and the {@code __Host-} prefix when the public origin is HTTPS, so a
 * sibling origin cannot plant one for the parent domain (RFC 6265bis §4.1.3.2); {@code Max-Age} the
 * token's own lifetime. Another name than the app origins' {@code qaldy_session}, so the gate's
 * app-origin session rules never read it.
 */
public final class ConsoleCookie {

    /** The cookie's name on an http public origin (a cell on localhost). */
    public static final String NAME = "qaldy_console";
    /** The cookie's name on an https public origin: browsers refuse it with a Domain, without Secure or Path=/. */
    public static final String SECURE_NAME = "__Host-" + NAME;

    private ConsoleCookie() {
    }

    /** The cookie's name for a public origin that is HTTPS ({@code secure}) or not. */
    public static String name(boolean secure) {
        return secure ? SECURE_NAME : NAME;
    }

    /**
     * The {@code Set-Cookie} value for a session token.
     *
     * @param maxAgeSeconds seconds until the token expires (the cookie goes with it)
     * @param secure        the public origin is HTTPS
     */
    public static String set(String token, long maxAgeSeconds, boolean secure) {
        return name(secure) + "=" + token + "; Path=/; Max-Age=" + Math.max(0, maxAgeSeconds)
                + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** The {@code Set-Cookie} value that removes the cookie (sign-out, a token the API refused). */
    public static String clear(boolean secure) {
        return name(secure) + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** The token of the first non-empty console cookie in these {@code Cookie} headers, or null. */
    public static String token(List<String> cookieHeaders, boolean secure) {
        for (String value : SessionCookie.values(cookieHeaders, name(secure))) {
            if (!value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }

    /**
     * A {@code Cookie} header without the console cookie (under either name), others unchanged; null
     * when nothing is left. The token never travels upstream as a cookie.
     */
    public static String without(String cookieHeader) {
        return SessionCookie.without(SessionCookie.without(cookieHeader, NAME), SECURE_NAME);
    }
}
