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
 * Seed: "a deleted version cannot come back." Once the API answered an app's deletion, no page of
 * any version built before it is served again, through any gate, from any copy: not even when
 * an app of the same name is created again (its versions are new ones).
 */
public final class DeletedStaysDeleted implements Invariant {

    @Override
    public String name() {
        return "A deleted version never comes back";
    }

    @Override
    public String rule() {
        return "no page of a version is served after the API answered its app's deletion";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        Map<String, Op> builds = new HashMap<>();
        List<Op> deletions = new ArrayList<>();
        for (Op op : history.ops()) {
            if (op.kind() == Kind.BUILD && op.ok() && !op.fact(Facts.MARKER).isEmpty()) {
                builds.put(op.fact(Facts.MARKER), op);
            }
            if (op.kind() == Kind.DELETE_APP && op.ok()) {
                deletions.add(op);
            }
        }
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op r : history.ops()) {
            if (r.kind() != Kind.OPEN || deletions.stream().noneMatch(d -> d.app().equals(r.app()) && d.end() < r.start())) {
                continue;
            }
            checks++;
            Op build = builds.get(r.fact(Facts.MARKER));
            if (r.status() != 200 || build == null) {
                continue;
            }
            for (Op d : deletions) {
                if (d.app().equals(build.app()) && d.start() > build.end() && d.end() < r.start()) {
                    violations.add(new Violation(r.start(), "version " + build.fact(Facts.VERSION) + " of " + build.app()
                            + " (marker " + r.fact(Facts.MARKER) + ") served via " + r.gate() + " " + (r.start() - d.end()) / 1000
                            + " s after the API answered the app's deletion (#" + d.id() + ")", List.of(r.id(), d.id(), build.id())));
                    break;
                }
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }
}
