package dev.qaldy.soak.check;

import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.List;

/** Issue 14: "no answer is a 500 with the API and the database up" (whatever else is away). */
public final class NoServerErrors implements Invariant {

    @Override
    public String name() {
        return "No 500 with the API and database up";
    }

    @Override
    public String rule() {
        return "no answer is a 500 while the control plane and its database are up (and settled)";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        List<Interval> apiAway = new Windows(history, bounds).apiMaybeFailing();
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            if (Interval.anyOverlaps(apiAway, r.start(), r.end())) {
                continue;
            }
            checks++;
            if (r.status() == 500) {
                violations.add(new Violation(r.start(), "500 to " + r.actor() + " (" + r.kind() + " " + r.app() + " via " + r.gate()
                        + "): “" + r.message() + "”", List.of(r.id())));
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }
}
