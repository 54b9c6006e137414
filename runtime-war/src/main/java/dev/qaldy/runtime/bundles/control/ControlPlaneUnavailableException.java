package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.platform.TemporarilyUnavailableException;

/**
 * The control plane could not be asked: a connection error, a timeout or an HTTP 5xx, and only
 * these (seed: "only a failure of the control plane starts this").
 */
public class ControlPlaneUnavailableException extends TemporarilyUnavailableException {

    private static final long serialVersionUID = 1L;

    private final boolean asked;

    public ControlPlaneUnavailableException(String logMessage) {
        super(logMessage);
        this.asked = true;
    }

    private ControlPlaneUnavailableException(String logMessage, boolean asked) {
        super(logMessage);
        this.asked = asked;
    }

    /** The control plane was not asked: the host's view of it says failing (issue 14). */
    public static ControlPlaneUnavailableException notAsked(String logMessage) {
        return new ControlPlaneUnavailableException(logMessage, false);
    }

    public ControlPlaneUnavailableException(String logMessage, Throwable cause) {
        super(logMessage, cause);
        this.asked = true;
    }

    /** False when the control plane was not asked at all (its failure is the host's view's, not this call's). */
    public boolean asked() {
        return asked;
    }

    @Override
    public String detail() {
        return "This app cannot be loaded right now. Please try again in a little while.";
    }
}
