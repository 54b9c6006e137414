package dev.qaldy.drill.rows;

import dev.qaldy.drill.cell.Seen;

/**
 * One thing one person did in the drill and whether it came out as the seed says.
 *
 * @param row      the seed's row it proves
 * @param when     "during the outage" or "after the return"
 * @param who      the person, e.g. "a person who already opened the app"
 * @param expected what the seed makes us expect, in a line
 * @param seen     what the person saw, in a line (status, message, time, how the gate decided)
 * @param ms       the time to answer in ms (-1 when it does not apply)
 * @param passed   whether {@code seen} is what was expected
 * @param evidence a file next to the report (a screenshot), or null
 */
public record Check(SeedRow row, String when, String who, String expected, String seen, long ms, boolean passed,
        String evidence) {

    public static final String DURING = "during the outage";
    public static final String AFTER = "after the return";

    /** A check of one HTTP answer. */
    public static Check of(SeedRow row, String when, String who, String expected, Seen seen, boolean passed) {
        return new Check(row, when, who, expected, seen.summary(), seen.ms(), passed, null);
    }

    /** A check the drill could not make at all (a step threw): failed, with the reason as what was seen. */
    public static Check broken(SeedRow row, String when, String who, String expected, Exception e) {
        return new Check(row, when, who, expected, "could not check: " + e.getMessage(), -1, false, null);
    }
}
