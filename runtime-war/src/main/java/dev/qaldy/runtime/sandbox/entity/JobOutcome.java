package dev.qaldy.runtime.sandbox.entity;

import java.util.List;

/**
 * How a job run ended, with the lines the handler wrote with {@code console.log} (at most
 * {@value #MAX_LOG_LINES}, each bounded) and, when it failed, why.
 */
public record JobOutcome(boolean succeeded, List<String> log, String error) {

    /** Most console lines kept for a run's log. */
    public static final int MAX_LOG_LINES = 100;

    public JobOutcome {
        log = List.copyOf(log);
    }

    public static JobOutcome succeeded(List<String> log) {
        return new JobOutcome(true, log, null);
    }

    public static JobOutcome failed(List<String> log, String error) {
        return new JobOutcome(false, log, error);
    }
}
