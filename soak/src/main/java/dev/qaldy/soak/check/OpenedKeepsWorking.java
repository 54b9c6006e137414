package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed: "People who already opened an app keep using it for up to 30 minutes"; "Pages already
 * served still load." While the API certainly fails, a person the gate let in (or a site page it
 * served) is served again from its copy, whenever {@link CopyExpectation} finds nothing else that
 * would explain a refusal.
 */
public final class OpenedKeepsWorking implements Invariant {

    @Override
    public String name() {
        return "What people already opened keeps working";
    }

    @Override
    public String rule() {
        return "while the API is failing, a person the gate let in (a site page it served) within the access memory is served"
                + " again from its copy (nothing else changed: sharing, sign-out, the gate, the runtime host, the cap, the shield)";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        CopyExpectation copies = new CopyExpectation(history, bounds);
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            Op basis = copies.basis(r);
            if (basis == null) {
                continue;
            }
            checks++;
            if (r.status() == 200) {
                continue;
            }
            Interval w = copies.failure(r);
            violations.add(new Violation(r.start(), (r.status() == 0 ? "no answer" : Integer.toString(r.status())) + " for "
                    + r.fact(Facts.PERSON) + " on " + r.app() + r.fact(Facts.PATH) + " via " + r.gate() + ", "
                    + (r.start() - w.from()) + " ms into an API failure; the same gate served them at #" + basis.id() + ", "
                    + (r.start() - basis.start()) / 1000 + " s before", List.of(r.id(), basis.id())));
        }
        return new Verdict(name(), rule(), checks, violations);
    }
}
