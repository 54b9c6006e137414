package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed: "A person it never saw gets a calm 'Temporarily unavailable' page (HTTP 503), not a 403."
 * While the API certainly fails, a 403 ("You don't have access") is right only from a remembered
 * deny: one this gate gave the person for the app within the access memory, since its last
 * restart and since the app's last sharing change.
 */
public final class NoForbiddenWhileFailing implements Invariant {

    @Override
    public String name() {
        return "No 403 while the API fails";
    }

    @Override
    public String rule() {
        return "while the API is failing, a person the gate never refused (since its restart and the app's last sharing change,"
                + " within the access memory) gets 503, never a 403";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        Windows windows = new Windows(history, bounds);
        List<Interval> failing = windows.apiCertainlyFailing();
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            Interval w = Interval.at(failing, r.start());
            if (!Access.isOpen(r) || !Access.sessionFor(r) || w == null || !w.covers(r.start(), r.end())) {
                continue;
            }
            checks++;
            if (!Access.accessRefused(r) || remembered(history, bounds, r)) {
                continue;
            }
            violations.add(new Violation(r.start(), "403 for " + r.fact(Facts.PERSON) + " on " + r.app() + " via " + r.gate()
                    + " " + (r.start() - w.from()) + " ms into an API failure, and " + r.gate()
                    + " had not refused them since its restart and the app's last sharing change", List.of(r.id())));
        }
        return new Verdict(name(), rule(), checks, violations);
    }

    /** Whether the gate may still hold a deny it gave this person for this app. */
    private static boolean remembered(History history, Bounds bounds, Op r) {
        for (Op earlier : history.ops()) {
            if (earlier.kind() != r.kind() || !Access.accessRefused(earlier) || !earlier.gate().equals(r.gate())
                    || !earlier.app().equals(r.app()) || !earlier.fact(Facts.PERSON).equals(r.fact(Facts.PERSON))
                    || earlier.end() > r.start() || earlier.start() + bounds.accessMemory().toMillis() < r.start()) {
                continue;
            }
            boolean cleared = history.ops().stream().anyMatch(c -> c.kind().changesSharing() && c.app().equals(r.app()) && c.ok()
                    && c.start() > earlier.end() && c.end() < r.start());
            boolean restarted = history.faults().stream().anyMatch(f -> f.component().equals(r.gate()) && f.kind().restarts()
                    && f.down() > earlier.end() && f.up() < r.start());
            if (!cleared && !restarted) {
                return true;
            }
        }
        return false;
    }
}
