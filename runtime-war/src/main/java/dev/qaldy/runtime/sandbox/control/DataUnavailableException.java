package dev.qaldy.runtime.sandbox.control;

import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;

/**
 * A handler's call of {@code qaldy.data} found the data API unreachable and the handler did not
 * catch it (seed: "The Backend data API is served by the API process today, so it stops with it").
 * The visitor gets 503 with {@code Retry-After}, problem type {@code urn:qaldy:problem:data-unavailable}:
 * not a hang, not a 500, no stack trace.
 */
public class DataUnavailableException extends ControlPlaneUnavailableException {

    private static final long serialVersionUID = 1L;

    public DataUnavailableException(String logMessage) {
        super(logMessage);
    }

    @Override
    public String type() {
        return "data-unavailable";
    }

    @Override
    public String detail() {
        return "This app cannot reach its data right now. Please try again in a little while.";
    }
}
