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
 * An app that exists (a version of it was made live, and it was not deleted) is never "not found", and a 200 is always the app's own page: not while its
 * gate starts (issue 14, finding 4: "until the gate's filter runs, a person must get 503
 * Temporarily unavailable or a refused connection, never 404 or 200"), not during any outage.
 * Every page the soak publishes carries its build's marker.
 */
public final class ExistingAppsFound implements Invariant {

    @Override
    public String name() {
        return "An app that exists is never missing";
    }

    @Override
    public String rule() {
        return "an app with a live version (not deleted) is never answered 404, and a 200 is always one of its pages";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        Map<String, List<Interval>> lifetimes = new HashMap<>();
        Map<String, Long> created = new HashMap<>();
        Map<String, Boolean> made = new HashMap<>();
        for (Op op : history.ops()) { // an app exists once a version of it is live, until its deletion is sent
            if (op.kind() == Kind.CREATE_APP && op.ok()) {
                made.put(op.app(), true);
            } else if (op.kind() == Kind.PROMOTE && op.ok() && made.remove(op.app()) != null) {
                created.put(op.app(), op.end() + bounds.liveFreshness().toMillis()); // the runtime host's "none yet" may stand that long
            } else if (op.kind() == Kind.DELETE_APP && !op.refused()) {
                made.remove(op.app());
                if (created.containsKey(op.app())) {
                    lifetimes.computeIfAbsent(op.app(), k -> new ArrayList<>()).add(new Interval(created.remove(op.app()), op.start()));
                }
            }
        }
        created.forEach((app, from) -> lifetimes.computeIfAbsent(app, k -> new ArrayList<>()).add(new Interval(from, Long.MAX_VALUE)));
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            if (r.kind() != Kind.OPEN || lifetimes.getOrDefault(r.app(), List.of()).stream().noneMatch(i -> i.covers(r.start(), r.end()))) {
                continue;
            }
            checks++;
            if (r.status() == 404) {
                violations.add(new Violation(r.start(), "404 “" + r.message() + "” for " + r.app() + r.fact(Facts.PATH) + " via " + r.gate()
                        + ", which exists", List.of(r.id())));
            } else if (r.status() == 200 && r.fact(Facts.MARKER).isEmpty()) {
                violations.add(new Violation(r.start(), "a 200 for " + r.app() + r.fact(Facts.PATH) + " via " + r.gate()
                        + " that is none of its pages (no build's marker): “" + r.message() + "”", List.of(r.id())));
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }
}
