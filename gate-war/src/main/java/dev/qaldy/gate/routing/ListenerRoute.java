package dev.qaldy.gate.routing;

import dev.qaldy.gate.access.SharingVersionPush;
import dev.qaldy.gate.cap.CapEndpoint;
import dev.qaldy.gate.session.SignedOutSessionPush;
import java.util.Locale;

/**
 * Step 0, before Host routing: which of the gate's two HTTP listeners a request came in on, and
 * what that listener serves (issue 16, item 2). The internal listener ({@code qaldy.gate.internal-port},
 * bound to the cell's internal address) serves only the control plane's calls to this gate, on any
 * Host; the public listener never serves them: there {@code /.qaldy/internal} and below, in any
 * letter case or percent-encoding, is {@link #NOT_HERE} (404, as any unknown path), with or without
 * a credential, so no credential can be tried from outside.
 */
public enum ListenerRoute {
    /** {@code /.qaldy/internal/sharing-versions} on the internal listener: a sharing push. */
    SHARING_PUSH,
    /** {@code /.qaldy/internal/signed-out-sessions} on the internal listener: a sign-out push. */
    SIGN_OUT_PUSH,
    /** {@code /.qaldy/internal/cap-states} on the internal listener: what the gate holds of the cap, or an offered state. */
    CAP_STATES,
    /** A path the listener it came in on does not serve: the 404 page. */
    NOT_HERE,
    /** The public listener's own traffic: on to Host routing. */
    PUBLIC;

    /** The prefix of the internal listener's paths (each matched exactly there, on the raw request URI). */
    public static final String INTERNAL_PREFIX = "/.qaldy/internal";

    /**
     * Decides for a raw request path (no query).
     *
     * @param internalListener whether the request came in on the internal listener (its local port is the internal port)
     */
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
            return NOT_HERE; // nothing else is served there: not the console, not an app
        }
        return internal(rawPath) ? NOT_HERE : PUBLIC;
    }

    /** True for {@code /.qaldy/internal} and below, however spelled (letter case, percent-encoding). */
    static boolean internal(String rawPath) {
        if (rawPath == null) {
            return false;
        }
        String decoded = PublicPath.decode(rawPath);
        return underInternal(decoded == null ? rawPath : decoded) || underInternal(rawPath);
    }

    /**
     * {@code path} lower-cased is the internal prefix or below it. Asked for every public request: only a
     * path starting "/." can be (lower-casing leaves '/' and '.' alone and makes neither), so only those are copied.
     */
    private static boolean underInternal(String path) {
        return path.startsWith("/.") && PublicPath.under(path.toLowerCase(Locale.ROOT), INTERNAL_PREFIX);
    }
}
