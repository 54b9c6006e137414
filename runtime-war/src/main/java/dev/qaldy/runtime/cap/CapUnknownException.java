package dev.qaldy.runtime.cap;

import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;

/**
 * The host never received the cap state of the app's account and cannot fetch it now (or does not
 * know the account): it cannot know the cap, so the server code does not run (503, like an outage).
 */
public class CapUnknownException extends ControlPlaneUnavailableException {

    private static final long serialVersionUID = 1L;

    public CapUnknownException(String logMessage) {
        super(logMessage);
    }
}
