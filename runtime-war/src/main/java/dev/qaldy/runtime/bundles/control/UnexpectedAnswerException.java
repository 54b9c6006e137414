package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.platform.ServingException;

/**
 * The control plane answered, but not as the contract says (e.g. 401 for our token, a malformed
 * body, an oversized bundle). Not an outage: a misconfiguration to fix, answered with 502.
 */
public class UnexpectedAnswerException extends ServingException {

    private static final long serialVersionUID = 1L;

    public UnexpectedAnswerException(String logMessage) {
        super(logMessage);
    }

    public UnexpectedAnswerException(String logMessage, Throwable cause) {
        super(logMessage, cause);
    }

    @Override
    public int status() {
        return 502;
    }

    @Override
    public String type() {
        return "bad-gateway";
    }

    @Override
    public String title() {
        return "This app can't be loaded right now";
    }

    @Override
    public String detail() {
        return "Something went wrong while loading this app. Please try again in a minute.";
    }
}
