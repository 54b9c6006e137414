package dev.qaldy.status.boundary;

/**
 * The operator's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site
 * makes the browser send it), Secure on HTTPS, no Max-Age (gone with the browser).
 */
public final class SessionCookie {

    /** The cookie's name. */
    public static final String NAME = "qaldy_status_operator";

    private SessionCookie() {
    }

    /** The {@code Set-Cookie} value that stores {@code token} for {@code path}. */
    public static String set(String token, String path, boolean secure) {
        return NAME + "=" + token + "; Path=" + path + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** The {@code Set-Cookie} value that deletes the cookie. */
    public static String clear(String path, boolean secure) {
        return NAME + "=; Path=" + path + "; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }
}
