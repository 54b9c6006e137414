package dev.qaldy.runtime.platform;

/**
 * The root of the runtime host's small exception tree: each kind knows its HTTP status, a stable
 * problem type and a title that is safe to show; the message is for the log only.
 */
public abstract class ServingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    protected ServingException(String logMessage) {
        super(logMessage);
    }

    protected ServingException(String logMessage, Throwable cause) {
        super(logMessage, cause);
    }

    /** The HTTP status of the answer. */
    public abstract int status();

    /** A stable slug, written as problem type {@code urn:qaldy:problem:<slug>}. */
    public abstract String type();

    /** A short title for the person; never carries internal details. */
    public abstract String title();

    /** One sentence for the person; never carries internal details. */
    public String detail() {
        return title() + ".";
    }
}
