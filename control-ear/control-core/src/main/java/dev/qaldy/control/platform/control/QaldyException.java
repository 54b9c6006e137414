package dev.qaldy.control.platform.control;

import dev.qaldy.contract.http.ProblemJson;
import java.util.Map;

/**
 * Root of the control plane's business exceptions: each one knows its HTTP status, a stable
 * problem type and a title; its message is the problem's {@code detail} and is shown to the user,
 * so it never carries internals.
 */
public abstract class QaldyException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    /**
     * Prefix of every problem type URI: the same {@code urn:qaldy:problem:<slug>} the gate and the
     * runtime host write, so a client reads one family of types whoever answered.
     */
    public static final String TYPE_BASE = ProblemJson.TYPE_PREFIX;

    protected QaldyException(String detail) {
        super(detail);
    }

    /** The HTTP status code of the problem. */
    public abstract int status();

    /** The stable last segment of the problem type URI, e.g. {@code invalid-input}. */
    protected abstract String slug();

    /** A short, fixed, human-readable summary of the problem type. */
    public abstract String title();

    /**
     * Extension members of the problem body (RFC 9457 section 3.2), e.g. a signed tombstone; none by
     * default. Values are shown to the caller like the detail.
     */
    public Map<String, String> members() {
        return Map.of();
    }

    /** The problem type URI (RFC 9457 {@code type}). */
    public String type() {
        return TYPE_BASE + slug();
    }
}
