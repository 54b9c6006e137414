package dev.qaldy.control.schedules.entity;

import java.util.Locale;

/** Where a run is: queued → (waiting-for-cap →) running → succeeded | failed. */
public enum RunState {
    QUEUED,
    /** The spending cap does not let the app run now; the dispatcher asks again on every tick. */
    WAITING_FOR_CAP,
    RUNNING,
    SUCCEEDED,
    FAILED;

    /** As the API shows it: {@code queued}, {@code waiting-for-cap}, … */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED;
    }
}
