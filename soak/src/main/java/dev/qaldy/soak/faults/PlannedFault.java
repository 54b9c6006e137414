package dev.qaldy.soak.faults;

import dev.qaldy.soak.history.FaultKind;
import java.time.Duration;

/**
 * One fault of the seed's timeline.
 *
 * @param component what is taken away ("control", "db", "gate2", …)
 * @param kind      how
 * @param after     when, from its round's first fault (0 for that one)
 * @param hold      how long it stays away before it is brought back (0 for a restart)
 */
public record PlannedFault(String component, FaultKind kind, Duration after, Duration hold) {

    /** When it is brought back, from its round's first fault. */
    public Duration back() {
        return after.plus(hold);
    }

    /** "control killed (SIGKILL), then started, at +0 s for 23 s". */
    public String line() {
        return component + " " + kind.said + ", at +" + after.toSeconds() + " s"
                + (kind == FaultKind.RESTART ? "" : " for " + hold.toSeconds() + " s");
    }
}
