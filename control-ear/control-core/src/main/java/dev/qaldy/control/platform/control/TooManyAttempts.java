package dev.qaldy.control.platform.control;

/** Too many recent failed attempts; the caller may retry after {@link #retryAfterSeconds()} (HTTP 429). */
public class TooManyAttempts extends QaldyException {

    private static final long serialVersionUID = 1L;
    private final long retryAfterSeconds;

    /** @param retryAfterSeconds seconds until a new attempt is accepted, at least 1 */
    public TooManyAttempts(String detail, long retryAfterSeconds) {
        super(detail);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /** Seconds until a new attempt is accepted (the {@code Retry-After} header). */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    @Override
    public int status() {
        return 429;
    }

    @Override
    protected String slug() {
        return "too-many-attempts";
    }

    @Override
    public String title() {
        return "Too many attempts";
    }
}
