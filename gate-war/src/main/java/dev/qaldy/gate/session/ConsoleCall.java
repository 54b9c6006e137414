package dev.qaldy.gate.session;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How a call to {@code /api} on the public origin carries the console's session (issue 20 item 4),
 * decided before it is forwarded. The console keeps its session in {@link ConsoleCookie} (every tab
 * of the browser shares it; no script can read it); the control plane reads {@code Authorization:
 * Bearer} only, so the gate sends the cookie's token upstream as that header. A cookie travels with
 * every request the browser makes to the origin, so a call that changes something (any method but
 * GET, HEAD, OPTIONS) with the cookie must also prove it comes from the console's own page (OWASP
 * CSRF Prevention Cheat Sheet: a custom request header, plus the Fetch Metadata / Origin check of
 * {@link SameOrigin}): {@value #CSRF_HEADER}, which a form of another site cannot send and a script
 * of another origin can only after a CORS preflight the gate never approves, and a {@code
 * Sec-Fetch-Site} or {@code Origin} of the public origin itself. {@code SameSite=Strict} already
 * keeps other sites' requests from carrying the cookie; the proof also holds where it does not
 * (an app under the same registrable domain is same-site; older browsers). Calls with an {@code
 * Authorization} header (scripts, the CLI, tests) are taken as sent, without any check: browsers
 * never attach that header on their own.
 */
public sealed interface ConsoleCall {

    /** The header the console sends with every call; any non-blank value (the console sends {@code 1}). */
    String CSRF_HEADER = "X-Qaldy-CSRF";
    /** The header with which the console's sign-in asks for its session as the cookie ({@value #COOKIE_MODE}). */
    String SESSION_HEADER = "X-Qaldy-Session";
    /** The value of {@value #SESSION_HEADER} that asks for the cookie. */
    String COOKIE_MODE = "cookie";
    /** The console's sign-in and sign-out paths (raw request URIs). */
    String SESSIONS = "/api/v1/sessions";
    String CURRENT_SESSION = "/api/v1/sessions/current";

    /** Methods that never change state (RFC 9110 §9.2.1), so they need no proof. */
    Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    /** No console cookie on the call, or an {@code Authorization} header of the caller's own: forwarded as sent. */
    record AsSent() implements ConsoleCall {
    }

    /**
     * The console's cookie: forwarded with {@code Authorization: Bearer token}.
     *
     * @param token     the session token the cookie holds
     * @param signOut   the console's sign-out: the cookie is cleared whatever the answer
     * @param signingIn a sign-in (without the cookie mode): a 401 there is a wrong password, not a dead cookie
     */
    record WithCookie(String token, boolean signOut, boolean signingIn) implements ConsoleCall {

        /** True when the answer's {@code status} ends the cookie: the sign-out, or the API refusing its token (401). */
        public boolean clearsOn(int status) {
            return signOut || status == 401 && !signingIn;
        }
    }

    /** The console's sign-in asking for the cookie: the gate sets it from the API's answer and keeps the token out of the page. */
    record SignIn() implements ConsoleCall {
    }

    /**
     * A change with the console's cookie that does not prove it comes from the console's page: 403, nothing forwarded.
     *
     * @param reason for the gate's log
     */
    record Refused(String reason) implements ConsoleCall {
    }

    /**
     * The request's parts the decision reads (header values as received, null when absent).
     *
     * @param path the raw request URI (no query)
     */
    record Request(String method, String path, String authorization, List<String> cookieHeaders, String csrf,
            String sessionMode, String secFetchSite, String origin, String host) {
    }

    /**
     * Decides how {@code r} carries the console's session.
     *
     * @param secure the public origin is HTTPS (the cookie's name, {@link ConsoleCookie#name})
     */
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
