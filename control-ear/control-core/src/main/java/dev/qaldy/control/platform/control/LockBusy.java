package dev.qaldy.control.platform.control;

/**
 * A change could not take a lock it needs within the database's lock timeout: another transaction
 * holds it (HTTP 503 with {@code Retry-After}; nothing was changed). Named by the lock, e.g. the
 * {@code BILLING_CLOCK} row that orders every cap state.
 */
public class LockBusy extends QaldyException {

    private static final long serialVersionUID = 1L;

    /** Seconds a caller should wait before trying again. */
    public static final int RETRY_AFTER_SECONDS = 2;

    private final String lock;

    /** @param lock what could not be locked, e.g. "the BILLING_CLOCK row" */
    public LockBusy(String lock) {
        super("The control plane is busy: " + lock + " is held by another change; nothing was changed, try again in "
                + RETRY_AFTER_SECONDS + " s.");
        this.lock = lock;
    }

    /** What could not be locked, for the log. */
    public String lock() {
        return lock;
    }

    /** Seconds until the caller should try again (the {@code Retry-After} header). */
    public int retryAfterSeconds() {
        return RETRY_AFTER_SECONDS;
    }

    @Override
    public int status() {
        return 503;
    }

    @Override
    protected String slug() {
        return "busy";
    }

    @Override
    public String title() {
        return "Busy";
    }
}
