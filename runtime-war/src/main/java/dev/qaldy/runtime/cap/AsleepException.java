package dev.qaldy.runtime.cap;

import dev.qaldy.runtime.platform.ServingException;
import java.time.Duration;
import java.time.Instant;

/** The app's account reached its spending cap: its server code does not run (503, {@code urn:qaldy:problem:asleep}). */
public class AsleepException extends ServingException {

    private static final long serialVersionUID = 1L;
    private final long retryAfterSeconds;
    private final Instant wakesAt;

    public AsleepException(String logMessage, Duration retryAfter, Instant wakesAt) {
        super(logMessage);
        this.retryAfterSeconds = Math.max(1, retryAfter.toSeconds());
        this.wakesAt = wakesAt;
    }

    /** Seconds until the next period, when the app wakes by itself (the {@code Retry-After} value). */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    @Override
    public int status() {
        return 503;
    }

    @Override
    public String type() {
        return "asleep";
    }

    @Override
    public String title() {
        return "This app is asleep";
    }

    @Override
    public String detail() {
        return "This app is asleep: its spending cap was reached, and it wakes when its owner raises the cap or when a "
                + "new month starts (" + wakesAt + ").";
    }
}
