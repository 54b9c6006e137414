package dev.qaldy.gate.routing;

import java.util.Locale;

/** What a path on an app's origin is: {@code /.qaldy/} is the gate's, everything else goes to the app unchanged. */
public enum AppPath {
    TICKET,
    SIGNOUT,
    /** Exactly so spelled: forwarded to the control plane, never the runtime host. */
    DATA,
    /** The runtime's {@code /.qaldy/jobs/} included: 404, never forwarded. */
    RESERVED,
    APP;

    /** @param rawPath no query */
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
