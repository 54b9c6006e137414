package dev.qaldy.soak.faults;

import java.time.Duration;
import java.util.List;

/**
 * One round of the seed's timeline: a quiet gap, then one or two faults, then (once all are
 * back) the recovery probe.
 *
 * @param number the round, from 1
 * @param shape  "one fault", "two at once" or "a restart during an outage"
 * @param gap    the quiet time before its first fault
 * @param faults its faults, the first at +0
 */
public record PlannedRound(int number, String shape, Duration gap, List<PlannedFault> faults) {

    public PlannedRound {
        faults = List.copyOf(faults);
    }

    /** When its last fault is brought back, from its first. */
    public Duration length() {
        return faults.stream().map(PlannedFault::back).max(Duration::compareTo).orElse(Duration.ZERO);
    }
}
