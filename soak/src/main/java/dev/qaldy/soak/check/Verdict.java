package dev.qaldy.soak.check;

import java.util.List;

/**
 * How one invariant fared on a history.
 *
 * @param name       the invariant's name, as the report and stderr say it
 * @param rule       what it promises
 * @param checks     how many answers (runs, recoveries) it judged
 * @param violations those that broke it, in time order
 */
public record Verdict(String name, String rule, int checks, List<Violation> violations) {

    public Verdict {
        violations = violations.stream().sorted(java.util.Comparator.comparingLong(Violation::at)).toList();
    }

    public boolean held() {
        return violations.isEmpty();
    }
}
