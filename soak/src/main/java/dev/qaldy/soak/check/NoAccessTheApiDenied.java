package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed: "A failure of the control plane never widens access." No page (200) for someone the API
 * last denied or never allowed, nor after a revocation, a deletion, a change back to sign-in or a
 * sign-out the API had answered; a session made for another app opens nothing else.
 */
public final class NoAccessTheApiDenied implements Invariant {

    @Override
    public String name() {
        return "No access the API denied";
    }

    @Override
    public String rule() {
        return "never a 200 for someone the API last denied or never allowed, nor after a revocation, a deletion or a sign-out "
                + "the API had answered (a change without an answer is indeterminate: it may have happened)";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        Windows windows = new Windows(history, bounds);
        Access access = new Access(history, windows, bounds);
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            if (!Access.isOpen(r)) {
                continue;
            }
            checks++;
            if (r.status() != 200 || access.mayBeAllowed(r.app(), Facts.ANONYMOUS, r)) {
                continue;
            }
            String session = r.fact(Facts.SESSION);
            String person = r.fact(Facts.PERSON);
            Op signOut = access.signedOut(session, r);
            if (Access.sessionFor(r) && signOut == null && access.mayBeAllowed(r.app(), person, r)) {
                continue;
            }
            violations.add(new Violation(r.start(), "200 for " + person + " on " + r.app() + " via " + r.gate() + ": "
                    + why(access, r, session, signOut), ids(r, signOut, access.lastDenial(r.app(), person, r))));
        }
        return new Verdict(name(), rule(), checks, violations);
    }

    private static String why(Access access, Op r, String session, Op signOut) {
        if (session.isEmpty()) {
            return "no session, and the app was not a public site";
        }
        if (!Access.sessionFor(r)) {
            return "the session was made for " + r.fact(Facts.SESSION_APP) + ", not for " + r.app();
        }
        if (signOut != null) {
            return "its session was signed out (#" + signOut.id() + ", " + signOut.header("x-qaldy-signed-out") + ") "
                    + (r.start() - signOut.end()) + " ms before";
        }
        Op denial = access.lastDenial(r.app(), r.fact(Facts.PERSON), r);
        return denial == null ? "the API never allowed it"
                : "the API had denied it (#" + denial.id() + " " + denial.kind() + " answered " + denial.status() + ") "
                        + (r.start() - denial.end()) + " ms before";
    }

    private static List<Long> ids(Op... ops) {
        List<Long> out = new ArrayList<>();
        for (Op op : ops) {
            if (op != null) {
                out.add(op.id());
            }
        }
        return out;
    }
}
