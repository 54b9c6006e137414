package dev.qaldy.control.builds.entity;

import java.util.Locale;

/** Where a build is: queued → running → succeeded or failed; the last two never change. */
public enum BuildStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED;

    /** The lower-case name the API shows, e.g. {@code "queued"}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED;
    }
}
