package dev.qaldy.gate.session;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How a call to {@code /api} on the public origin carries the console's session (issue 20 item 4).
 * The console keeps it in {@link ConsoleCookie}; the gate sends the token upstream as
 * {@code Authorization: Bearer}. A change (any method but GET, HEAD, OPTIONS) with the cookie must
 * prove it comes from the console's page (OWASP CSRF Prevention Cheat Sheet): {@value #CSRF_HEADER},
 * which another site can send only after a CORS preflight the gate never approves, and
 * {@link SameOrigin}. This holds where {@code SameSite=Strict} does not (same-site apps, older
 * browsers). Calls with their own {@code Authorization} go as sent: browsers never add it.
 */
public sealed interface ConsoleCall {

    /** Any non-blank value (the console sends {@code 1}). */
    String CSRF_HEADER = "X-Qaldy-CSRF";
    /** The console's sign-in asks for its session as the cookie with {@value #COOKIE_MODE}. */
    String SESSION_HEADER = "X-Qaldy-Session";
    String COOKIE_MODE = "cookie";
    /** Raw request URIs. */
    String SESSIONS = "/api/v1/sessions";
    String CURRENT_SESSION = "/api/v1/sessions/current";

    /** RFC 9110 §9.2.1. */
    Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    record AsSent() implements ConsoleCall {
    }

    /**
     * @param signOut   the cookie is cleared whatever the answer
     * @param signingIn a 401 there is a wrong password, not a dead cookie
     */
    record WithCookie(String token, boolean signOut, boolean signingIn) implements ConsoleCall {

        public boolean clearsOn(int status) {
            return signOut || status == 401 && !signingIn;
        }
    }

    /** The gate sets the cookie from the API's answer and keeps the token out of the page. */
    record SignIn() implements ConsoleCall {
    }

    /** 403, nothing forwarded; {@code reason} is for the log. */
    record Refused(String reason) implements ConsoleCall {
    }

    /** Header values as received, null when absent; {@code path} is the raw URI without query. */
    record Request(String method, String path, String authorization, List<String> cookieHeaders, String csrf,
            String sessionMode, String secFetchSite, String origin, String host) {
    }

    /** @param secure the public origin is HTTPS (picks {@link ConsoleCookie#name}) */
    static ConsoleCall of(Request r, boolean secure) {
        String method = r.method() == null ? "" : r.method().toUpperCase(Locale.ROOT);
        boolean sameOrigin = SameOrigin.allows(r.secFetchSite(), r.origin(), r.host());
        if ("POST".equals(method) && SESSIONS.equals(r.path()) && r.sessionMode() != null
                && COOKIE_MODE.equalsIgnoreCase(r.sessionMode().strip())) {
            return sameOrigin ? new SignIn() : new Refused("a sign-in for the console's cookie from another origin");
        }
        if (r.authorization() != null) {
            return new AsSent();
        }
        String token = ConsoleCookie.token(r.cookieHeaders(), secure);
        if (token == null) {
            return new AsSent();
        }
        boolean signingIn = "POST".equals(method) && SESSIONS.equals(r.path());
        if (SAFE_METHODS.contains(method)) {
            return new WithCookie(token, false, false);
        }
        if (r.csrf() == null || r.csrf().isBlank()) {
            return new Refused("a " + method + " with the console's cookie but no " + CSRF_HEADER + " header");
        }
        if (!sameOrigin) {
            return new Refused("a " + method + " with the console's cookie from another origin");
        }
        return new WithCookie(token, "DELETE".equals(method) && CURRENT_SESSION.equals(r.path()), signingIn);
    }
}
