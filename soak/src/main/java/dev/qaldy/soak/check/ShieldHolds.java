package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed: "Rate limits, bot rules and daily limits live in the gate and do not depend on the API."
 * A request with a User-Agent the cell's bot rules block is never served; and once a gate said an
 * app reached its daily limit, it lets no request for that app past its shield that day (issue
 * 14, finding 3: "a client limited before a restart stays limited for the rest of its day; also
 * when the API is down"), unless its owner changed its shield settings since, or deleted it. The
 * shield is the gate's first step, so any answer of a later step shows it let the request pass: a
 * page (200), a sign-in (302, 401), "You don't have access", "Temporarily unavailable", "asleep",
 * "No such app". A server's own page while the gate starts, or no answer, says nothing of it.
 */
public final class ShieldHolds implements Invariant {

    @Override
    public String name() {
        return "The shield holds, across restarts";
    }

    @Override
    public String rule() {
        return "a blocked bot is never served; an app a gate said reached its daily limit is let past that gate's shield no more"
                + " that day (restarts included), unless its owner changed its shield";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        long day = bounds.shieldDay().toMillis();
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        Map<String, Op> limited = new HashMap<>(); // gate + app → the 429 that said so
        for (Op r : history.ops()) {
            if (r.kind() != Kind.OPEN) {
                continue;
            }
            if (!r.fact(Facts.BOT).isEmpty()) {
                checks++;
                if (r.status() == 200) {
                    violations.add(new Violation(r.start(), "a bot (" + r.fact(Facts.BOT) + " User-Agent) was served " + r.app()
                            + " via " + r.gate(), List.of(r.id())));
                }
                continue;
            }
            String where = r.gate() + "\n" + r.app();
            Op since = limited.get(where);
            if (since != null && (r.start() / day != since.end() / day || r.end() / day != since.end() / day
                    || changed(history, r.app(), since.start(), r.end()))) {
                limited.remove(where);
                since = null;
            }
            if (since != null && r.start() > since.end()) {
                checks++;
                if (pastTheShield(r)) {
                    violations.add(new Violation(r.start(), r.app() + " let past the shield of " + r.gate() + " (" + r.status() + " “"
                            + r.message() + "”) " + (r.start() - since.end()) / 1000
                            + " s after the same gate said it reached its daily limit (#" + since.id() + ")"
                            + (restarted(history, r.gate(), since.end(), r.start()) ? ", the gate restarted in between" : ""),
                            List.of(r.id(), since.id())));
                    limited.remove(where); // one violation per limit reached
                }
            }
            if (r.status() == 429 && r.message().contains("daily limit") && since == null) {
                limited.put(where, r);
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }

    /** Whether the answer came from a step of the gate after its shield. */
    static boolean pastTheShield(Op r) {
        String m = r.message();
        return switch (r.status()) {
            case 200, 302, 401 -> true;
            case 403 -> Access.accessRefused(r);
            case 404 -> m.startsWith("No such app");
            case 503 -> m.startsWith("Temporarily unavailable") || m.startsWith("This app is asleep");
            default -> false;
        };
    }

    private static boolean changed(History history, String app, long from, long to) {
        return history.ops().stream().anyMatch(c -> (c.kind() == Kind.SHIELD || c.kind() == Kind.DELETE_APP) && c.app().equals(app)
                && !c.refused() && c.start() >= from && c.start() <= to);
    }

    private static boolean restarted(History history, String gate, long from, long to) {
        return history.faults().stream().anyMatch(f -> f.component().equals(gate) && f.kind().restarts()
                && f.start() >= from && f.start() <= to);
    }
}
