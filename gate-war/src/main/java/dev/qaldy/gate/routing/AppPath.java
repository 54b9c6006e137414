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
    /**
     * {@code /.qaldy/data/} and below, exactly so spelled: the app's data, forwarded to the control
     * plane for a signed-in person with access (never to the runtime host).
     */
    DATA,
    /** Anything else under {@code /.qaldy} (the runtime's {@code /.qaldy/jobs/} included): 404, never forwarded. */
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
        if (rawPath != null && rawPath.startsWith("/.qaldy/data/")) {
            return DATA;
        }
        // Only a path starting "/." can be reserved: the lower-case copy is made for those alone (issue 15).
        if (rawPath != null && rawPath.startsWith("/.") && PublicPath.under(rawPath.toLowerCase(Locale.ROOT), "/.qaldy")) {
            return RESERVED;
        }
        return APP;
    }
}
