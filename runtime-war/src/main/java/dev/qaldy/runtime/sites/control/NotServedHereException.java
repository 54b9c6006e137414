package dev.qaldy.runtime.sites.control;

import dev.qaldy.runtime.platform.ServingException;

/**
 * A static file this data centre never served, asked for while the control plane cannot be asked
 * (seed: such a file "needs the API"). Answered with 503 and {@code Retry-After}, never 404.
 */
public class NotServedHereException extends ServingException {

    private static final long serialVersionUID = 1L;

    public NotServedHereException(String logMessage) {
        super(logMessage);
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
        return "This page cannot be loaded right now. Please try again in a little while.";
    }
}
