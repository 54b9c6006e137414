package dev.qaldy.gate.routing;

import dev.qaldy.gate.access.SharingVersionPush;
import dev.qaldy.gate.cap.CapEndpoint;
import dev.qaldy.gate.hooks.HookMaterialPush;
import dev.qaldy.gate.session.SignedOutSessionPush;
import java.util.Locale;

/**
 * Step 0: which of the gate's two listeners a request came in on, and what it serves (issue 16 item
 * 2). The internal one ({@code qaldy.gate.internal-port}) serves only the control plane's calls, on
 * any Host; on the public one {@code /.qaldy/internal} and below, however spelled, is a 404 like any
 * unknown path, so no credential can be tried from outside.
 */
public enum ListenerRoute {
    SHARING_PUSH,
    SIGN_OUT_PUSH,
    /** What the gate holds of the cap, or an offered state. */
    CAP_STATES,
    /** A hook made or deleted (issue 17). */
    HOOK_PUSH,
    NOT_HERE,
    PUBLIC;

    /** Each internal path is matched exactly there, on the raw request URI. */
    public static final String INTERNAL_PREFIX = "/.qaldy/internal";

    /** @param rawPath no query */
    public static ListenerRoute of(boolean internalListener, String rawPath) {
        if (internalListener) {
            if (SharingVersionPush.PATH.equals(rawPath)) {
                return SHARING_PUSH;
            }
            if (SignedOutSessionPush.PATH.equals(rawPath)) {
                return SIGN_OUT_PUSH;
            }
            if (CapEndpoint.PATH.equals(rawPath)) {
                return CAP_STATES;
            }
            if (HookMaterialPush.PATH.equals(rawPath)) {
                return HOOK_PUSH;
            }
            return NOT_HERE; // nothing else is served there: not the console, not an app
        }
        return internal(rawPath) ? NOT_HERE : PUBLIC;
    }

    /** However spelled (letter case, percent-encoding). */
    static boolean internal(String rawPath) {
        if (rawPath == null) {
            return false;
        }
        String decoded = PublicPath.decode(rawPath);
        return underInternal(decoded == null ? rawPath : decoded) || underInternal(rawPath);
    }

    /** Asked per public request: only a path starting "/." can match, so only those are lower-cased. */
    private static boolean underInternal(String path) {
        return path.startsWith("/.") && PublicPath.under(path.toLowerCase(Locale.ROOT), INTERNAL_PREFIX);
    }
}
