package dev.qaldy.runtime.platform;

/**
 * 503 {@code urn:qaldy:problem:temporarily-unavailable} with {@code Retry-After}, never a 404 or a
 * 403: what the host cannot answer while the control plane cannot be asked. Each kind says its own
 * sentence ({@link #detail()}).
 */
public abstract class TemporarilyUnavailableException extends ServingException {

    private static final long serialVersionUID = 1L;

    protected TemporarilyUnavailableException(String logMessage) {
        super(logMessage);
    }

    protected TemporarilyUnavailableException(String logMessage, Throwable cause) {
        super(logMessage, cause);
    }

    @Override
    public int status() {
        return 503;
    }

    @Override
    public String type() {
        return "temporarily-unavailable";
    }

    @Override
    public String title() {
        return "Temporarily unavailable";
    }

    @Override
    public abstract String detail();
}
