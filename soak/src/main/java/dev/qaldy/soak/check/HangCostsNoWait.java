package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 14, finding 2: while the API hangs (SIGSTOP of the control plane or its database), a
 * person served from the gate's copy waits no longer than {@code hangWait} after the first
 * {@code hangGrace} of the hang: no breaker's half-open probe is paid by their request.
 */
public final class HangCostsNoWait implements Invariant {

    @Override
    public String name() {
        return "A hung API costs people on the copy no wait";
    }

    @Override
    public String rule() {
        return "while the API hangs, past its first seconds, a person served from the copy gets the answer within the hang wait";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        CopyExpectation copies = new CopyExpectation(history, bounds);
        List<Interval> hanging = new Windows(history, bounds).apiCertainlyHanging();
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            Interval h = Interval.at(hanging, r.start());
            if (h == null || r.start() < h.from() + bounds.hangGrace().toMillis() || r.end() > h.to() || r.status() != 200
                    || copies.basis(r) == null) {
                continue;
            }
            checks++;
            long waited = r.took(); // by the monotonic clock (Op)
            if (waited > bounds.hangWait().toMillis()) {
                violations.add(new Violation(r.start(), r.fact(Facts.PERSON) + " on " + r.app() + " via " + r.gate() + " waited "
                        + waited + " ms for a page from the copy, " + (r.start() - h.from()) + " ms into a hang of the API",
                        List.of(r.id())));
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }
}
