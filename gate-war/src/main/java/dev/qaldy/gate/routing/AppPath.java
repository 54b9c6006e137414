package dev.qaldy.gate.routing;

import java.util.Locale;

/**
 * What a path on an app's origin is. The gate keeps {@code /.qaldy/} for itself (sign-in ticket,
 * sign-out); every other path is the app's and goes to the runtime host unchanged.
 */
public enum AppPath {
    /** {@code /.qaldy/ticket}: redeem a one-time sign-in ticket. */
    TICKET,
    /** {@code /.qaldy/signout}: clear the session cookie. */
    SIGNOUT,
    /** Anything else under {@code /.qaldy}: 404, never forwarded. */
    RESERVED,
    /** The app's own traffic. */
    APP;

    /** Classifies a raw request path (no query). */
    public static AppPath of(String rawPath) {
        if ("/.qaldy/ticket".equals(rawPath)) {
            return TICKET;
        }
        if ("/.qaldy/signout".equals(rawPath)) {
            return SIGNOUT;
        }
        if (rawPath != null && PublicPath.under(rawPath.toLowerCase(Locale.ROOT), "/.qaldy")) {
            return RESERVED;
        }
        return APP;
    }
}
