package dev.qaldy.status.platform;

/**
 * An error the caller can act on, answered as {@code application/problem+json} with its status
 * and a stable type; the only exception the boundaries throw on purpose.
 */
public class Problem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final long retryAfterSeconds;

    public Problem(int status, String type, String title) {
        this(status, type, title, 0);
    }

    /** A problem whose answer carries {@code Retry-After: retryAfterSeconds} (0: none). */
    public Problem(int status, String type, String title, long retryAfterSeconds) {
        super(title);
        this.status = status;
        this.type = type;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static Problem badRequest(String title) {
        return new Problem(400, "bad-request", title);
    }

    public static Problem notFound(String title) {
        return new Problem(404, "not-found", title);
    }

    /** HTTP status, e.g. 400. */
    public int status() {
        return status;
    }

    /** A stable short word, e.g. {@code csrf}; the problem's {@code type} is {@code urn:qaldy:status:<type>}. */
    public String type() {
        return type;
    }

    /** Seconds to send in {@code Retry-After}, or 0. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
