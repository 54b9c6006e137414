package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.platform.ServingException;

/**
 * The control plane could not be asked: a connection error, a timeout or an HTTP 5xx, and only
 * these (seed: "only a failure of the control plane starts this"). Answered with 503 and
 * {@code Retry-After}, never with a 404 or a 403.
 */
public class ControlPlaneUnavailableException extends ServingException {

    private static final long serialVersionUID = 1L;

    public ControlPlaneUnavailableException(String logMessage) {
        super(logMessage);
    }

    public ControlPlaneUnavailableException(String logMessage, Throwable cause) {
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
    public String detail() {
        return "This app cannot be loaded right now. Please try again in a little while.";
    }
}
