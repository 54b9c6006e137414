package dev.qaldy.runtime.sites.control;

import dev.qaldy.runtime.platform.TemporarilyUnavailableException;

/**
 * A static file this data centre never served, asked for while the control plane cannot be asked
 * (seed: such a file "needs the API"): never a 404.
 */
public class NotServedHereException extends TemporarilyUnavailableException {

    private static final long serialVersionUID = 1L;

    public NotServedHereException(String logMessage) {
        super(logMessage);
    }

    @Override
    public String detail() {
        return "This page cannot be loaded right now. Please try again in a little while.";
    }
}
