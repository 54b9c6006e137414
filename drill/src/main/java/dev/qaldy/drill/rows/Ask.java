package dev.qaldy.drill.rows;

import dev.qaldy.drill.cell.Seen;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Makes one HTTP check: asks, records what was seen, judges it; an exception is a failed check saying why. */
final class Ask {

    /** An answer that is not a hang: a person gets the page or the error within this (ms). */
    static final long PROMPT_MS = 10_000;

    private Ask() {
    }

    static Check check(SeedRow row, String when, String who, String expected, Supplier<Seen> ask, Predicate<Seen> ok) {
        try {
            Seen seen = ask.get();
            return Check.of(row, when, who, expected, seen, ok.test(seen));
        } catch (RuntimeException e) {
            return Check.broken(row, when, who, expected, e);
        }
    }

    /**
     * Asks every second until {@code ok} holds or {@code wait} has passed (the first calls to a
     * control plane that just came back may still time out); the check records the last answer.
     */
    static Check eventually(SeedRow row, String when, String who, String expected, Supplier<Seen> ask, Predicate<Seen> ok,
            java.time.Duration wait) {
        java.time.Instant deadline = java.time.Instant.now().plus(wait);
        Check last;
        do {
            last = check(row, when, who, expected, ask, ok);
            if (last.passed()) {
                return last;
            }
            dev.qaldy.drill.cast.Cast.pause(java.time.Duration.ofSeconds(1));
        } while (java.time.Instant.now().isBefore(deadline));
        return last;
    }

    /** An error a person can act on: the status, a Retry-After, a message, no stack trace, no hang. */
    static boolean clearRefusal(Seen seen, int status) {
        return seen.status() == status && !seen.header("retry-after").isEmpty() && !seen.message().isBlank()
                && !seen.body().contains("Exception") && seen.ms() < PROMPT_MS;
    }
}
