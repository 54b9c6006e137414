package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.platform.ServingException;

/**
 * A bundle that must not run: its bytes do not hash to the sealed SHA-256, its seal is not the
 * cell's or names another app or version, or it cannot be unpacked safely. Never served (502).
 */
public class BundleRefusedException extends ServingException {

    private static final long serialVersionUID = 1L;

    public BundleRefusedException(String logMessage) {
        super(logMessage);
    }

    public BundleRefusedException(String logMessage, Throwable cause) {
        super(logMessage, cause);
    }

    @Override
    public int status() {
        return 502;
    }

    @Override
    public String type() {
        return "bundle-refused";
    }

    @Override
    public String title() {
        return "This app cannot be served";
    }

    @Override
    public String detail() {
        return "This app's code did not pass Qaldy's integrity check, so it was not run. Its owner can publish it again.";
    }
}
