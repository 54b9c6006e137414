package dev.qaldy.drill.cell;

/**
 * The drill could not do what it needed to set a row up (a sign-up refused, a build that failed,
 * bin/qaldy exiting non-zero): the run stops with this message and exit code 2, which is not a
 * row failing.
 */
public final class DrillError extends RuntimeException {

    public DrillError(String message) {
        super(message);
    }

    public DrillError(String message, Throwable cause) {
        super(message, cause);
    }
}
