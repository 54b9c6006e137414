package dev.qaldy.gate.session;

import java.util.List;

/**
 * The console's session cookie on the public origin (issue 20 item 4), holding the control plane's
 * session token: {@code HttpOnly}; {@code SameSite=Strict}; host-only, so app origins never get it;
 * {@code Secure} and {@code __Host-} on HTTPS, so a sibling origin cannot plant one (RFC 6265bis
 * §4.1.3.2); {@code Max-Age} the token's lifetime. Named apart from the apps' {@code qaldy_session}.
 */
public final class ConsoleCookie {

    /** On an http public origin (a cell on localhost). */
    public static final String NAME = "qaldy_console";
    /** On an https public origin. */
    public static final String SECURE_NAME = "__Host-" + NAME;

    private ConsoleCookie() {
    }

    public static String name(boolean secure) {
        return secure ? SECURE_NAME : NAME;
    }

    /** @param maxAgeSeconds until the token expires */
    public static String set(String token, long maxAgeSeconds, boolean secure) {
        return name(secure) + "=" + token + "; Path=/; Max-Age=" + Math.max(0, maxAgeSeconds)
                + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** Sign-out, or a token the API refused. */
    public static String clear(boolean secure) {
        return name(secure) + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** The first non-empty console cookie's token, or null. */
    public static String token(List<String> cookieHeaders, boolean secure) {
        for (String value : SessionCookie.values(cookieHeaders, name(secure))) {
            if (!value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }

    /** Without the console cookie (either name); null when nothing is left. */
    public static String without(String cookieHeader) {
        return SessionCookie.without(SessionCookie.without(cookieHeader, NAME), SECURE_NAME);
    }
}
