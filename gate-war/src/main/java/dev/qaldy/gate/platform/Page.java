package dev.qaldy.gate.platform;

import java.util.Objects;

/**
 * One of the gate's own answers: status, stable problem type, title, a sentence or two ending with
 * what to do next, and an optional link. In a visitor's words, never naming the cell's inner parts;
 * {@link Pages} renders it as HTML or {@code application/problem+json}.
 *
 * @param type     stable problem type slug, e.g. {@code forbidden}
 * @param linkHref null for none
 */
public record Page(int status, String type, String title, String sentence, String linkHref, String linkText) {

    /** The {@code Retry-After} of a 503, seconds. */
    public static final int RETRY_AFTER_SECONDS = 30;

    /** Issue 20: the same words on the gate's page, its problem JSON and the console's sign-in. */
    public static final String SIGN_IN_PAUSED = "Signing in is paused for a moment. If you already use this app, it keeps working.";

    public Page {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(sentence, "sentence");
    }

    public Page withLink(String href, String text) {
        return new Page(status, type, title, sentence, href, text);
    }

    public static Page badHost() {
        return new Page(400, "unknown-host", "Unknown address",
                "This address doesn't belong to any app here; check the link you followed.", null, null);
    }

    public static Page badPath() {
        return new Page(400, "bad-path", "Bad address",
                "This path isn't one the gate can pass on; check the link and try again.", null, null);
    }

    public static Page badTicket() {
        return new Page(400, "sign-in-link-expired", "This sign-in link has expired",
                "Sign-in links work once and only for a minute; open the app again from the console.", null, null);
    }

    public static Page unauthorized() {
        return new Page(401, "unauthorized", "Sign in to continue",
                "This app needs a valid Qaldy session: a session cookie or an Authorization: Bearer token.", null, null);
    }

    public static Page serviceUnauthorized() {
        return new Page(401, "unauthorized", "Service token required",
                "This endpoint is for the cell's own services and needs the X-Qaldy-Service-Token header.", null, null);
    }

    /** A credential of the cell made for another direction (issue 16). */
    public static Page serviceForbidden() {
        return new Page(403, "forbidden", "Wrong credential",
                "This endpoint is for the control plane; the credential sent was made for another of the cell's calls.", null, null);
    }

    public static Page badRequest(String sentence) {
        return new Page(400, "bad-request", "Bad request", sentence, null, null);
    }

    public static Page forbidden(String email) {
        return new Page(403, "forbidden", "You don't have access to this app",
                "You're signed in as " + email + "; ask the app's owner to share it with you.", null, null);
    }

    /** {@code home}: the console. */
    public static Page unknownApp(String app, String home) {
        return new Page(404, "unknown-app", "No such app",
                "There is no app called " + app + " here. Check the address, or find your apps on the Qaldy home page.",
                home, "Go to Qaldy's home page");
    }

    /** {@code home}: the origin's root. */
    public static Page noRoute(String home) {
        return new Page(404, "no-such-route", "Page not found",
                "There is nothing at this address. Check the link, or start again from the home page.", home, "Go to the home page");
    }

    public static Page methodNotAllowed() {
        return new Page(405, "method-not-allowed", "Method not allowed",
                "The gate doesn't pass on this HTTP method here.", null, null);
    }

    public static Page tooLarge(long maxBytes) {
        return new Page(413, "body-too-large", "Request too large",
                "Apps accept request bodies of up to " + maxBytes + " bytes.", null, null);
    }

    public static Page methodNotAllowedByShield() {
        return new Page(405, "method-not-allowed", "Method not allowed",
                "The gate's shield doesn't pass on this HTTP method; the Allow header lists those it does.", null, null);
    }

    /** Path and query longer than the shield's bound. */
    public static Page uriTooLong() {
        return new Page(414, "uri-too-long", "Address too long",
                "This address is longer than the gate accepts; shorten the path or the query and try again.", null, null);
    }

    public static Page headersTooLarge() {
        return new Page(431, "headers-too-large", "Request headers too large",
                "This request carries more header data than Qaldy accepts. Clear this site's cookies in your browser,"
                        + " then open the page again.", null, null);
    }

    /**
     * {@code app} null: the public API.
     *
     * @param why the end of a sentence, e.g. "it has no User-Agent header"
     */
    public static Page blockedByShield(String app, String why) {
        return new Page(403, "blocked-by-shield", app == null ? "Blocked by Qaldy's shield" : "Blocked by the app's shield",
                "The gate refused this request because " + why + "; if that's a mistake, "
                        + (app == null ? "contact the cell's operators" : "ask the owner of " + app) + ".", null, null);
    }

    /** {@code app} null: the public API. */
    public static Page tooManyRequests(String app, long retryAfterSeconds) {
        return new Page(429, "rate-limited", "Too many requests",
                "Requests to " + (app == null ? "Qaldy's API" : app) + " from your address are coming faster than "
                        + "its limit allows, so please wait " + retryAfterSeconds + (retryAfterSeconds == 1 ? " second" : " seconds")
                        + " and try again.", null, null);
    }

    public static Page dailyLimitReached(String app, String opensAgain) {
        return new Page(429, "daily-limit-reached", "This app reached its daily limit",
                "The app " + app + " has served all the requests its plan allows for today; please come back from "
                        + opensAgain + ".", null, null);
    }

    public static Page internalError(String reference) {
        return new Page(500, "internal-error", "Something went wrong",
                "The gate hit an unexpected error; try again, and quote reference " + reference + " if it persists.",
                null, null);
    }

    public static Page appUnreachable() {
        return new Page(503, "app-unreachable", "This app can't be reached right now",
                "The server that runs this app didn't answer. Please try again in a minute.", null, null);
    }

    /** Seed: signing in and a first visit need the control plane; people who already opened the app keep access. */
    public static Page unavailable() {
        return new Page(503, "temporarily-unavailable", "Temporarily unavailable", SIGN_IN_PAUSED, null, null);
    }

    /**
     * A gate that may use none of its copies (out of touch with the sharing changes, or cut off alone
     * from the control plane) refuses everyone, the people it remembers too: it must not tell them they
     * keep access, as {@link #unavailable()} does.
     */
    public static Page accessUnconfirmed() {
        return new Page(503, "temporarily-unavailable", "Temporarily unavailable",
                "Qaldy can't confirm who may open this app right now. Please try again in a minute.", null, null);
    }

    /** Seed: "apps still go to sleep at the cap with no API at all"; its own type, never the outage page. */
    public static Page asleep(String app, java.time.Instant wakesAt) {
        return new Page(503, "asleep", "This app is asleep",
                "This app is asleep: its spending cap was reached, and " + app + " wakes when its owner raises the cap "
                        + "or when a new month starts (" + wakesAt + ").", null, null);
    }

    /** The API through the gate while the control plane is down. */
    public static Page apiUnavailable() {
        return new Page(503, "temporarily-unavailable", "Temporarily unavailable",
                "Qaldy can't make changes right now; apps people already opened keep working. "
                        + "Please try again in a minute.", null, null);
    }

    /** A body slower than the gate's minimum rate (issue 16): 408, as Apache's mod_reqtimeout answers. */
    public static Page requestTimeout() {
        return new Page(408, "request-timeout", "The request arrived too slowly",
                "Your request's body arrived too slowly, so the gate stopped waiting for it. Check your connection and try again.",
                null, null);
    }

    public static Page gatewayTimeout() {
        return new Page(504, "upstream-timeout", "This took too long",
                "The server behind the gate didn't answer in time; try again in a moment.", null, null);
    }

    /** Another method than POST (a link, a prefetch) signs nobody out. */
    public static Page signOutNeedsPost(String app) {
        return new Page(405, "method-not-allowed", "Sign out with the app's button",
                "Signing out of " + app + " takes a POST from the app's own page (its sign-out button); opening "
                        + "this address signs nobody out.", null, null);
    }

    public static Page crossSiteSignOut(String app) {
        return new Page(403, "cross-site-request", "Sign-out refused",
                "Only " + app + "'s own pages can sign you out of it; this request came from another site, and you are"
                        + " still signed in.", null, null);
    }

    /** A change with the console's cookie but no {@code X-Qaldy-CSRF} header or another origin (issue 20 item 4). */
    public static Page crossSiteChange() {
        return new Page(403, "cross-site-request", "Change refused",
                "This change did not come from the Qaldy console's own page, so nothing was changed. Make it from the"
                        + " console, or from a script that sends an Authorization: Bearer token.", null, null);
    }

    public static Page signInUnfinished() {
        return new Page(502, "sign-in-unfinished", "Signing in did not finish",
                "Signing in did not finish, and you are not signed in. Please try again in a moment.", null, null);
    }

    public static Page signedOut(String app) {
        return new Page(200, "signed-out", "Signed out",
                "You're signed out of " + app + " in this browser.", null, null);
    }

    /** The control plane could not be told: only this gate refuses the session until it expires. */
    public static Page signedOutHereOnly(String app) {
        return new Page(200, "signed-out", "Signed out in this browser",
                "You're signed out of " + app + " in this browser. Ending the session everywhere else is paused for a"
                        + " moment, so if you used it elsewhere, sign out there again in a few minutes.",
                null, null);
    }
}
