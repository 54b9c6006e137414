package dev.qaldy.drill.report;

import dev.qaldy.drill.rows.Check;
import java.time.Instant;
import java.util.List;

/**
 * One outage of the drill and what everyone saw in it.
 *
 * @param name     short name, used in file names ("kill", "db", "cut")
 * @param title    what was done, e.g. "The API killed (bin/qaldy stop control --kill)"
 * @param stopped  when the component was stopped (or the links cut)
 * @param returned when it was started again (or the links healed)
 * @param checks   every check of the pass, during the outage and after the return
 */
public record PassResult(String name, String title, Instant stopped, Instant returned, List<Check> checks) {

    public boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }
}
