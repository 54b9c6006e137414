package dev.qaldy.soak.check;

import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Recovery;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 14: "after the last fault of a round heals, within 60 s every path works again (sign-in,
 * a billing write, a cap change, a build, a new app's first opening): nothing is left wedged."
 */
public final class Recovers implements Invariant {

    @Override
    public String name() {
        return "Everything works again within 60 s";
    }

    @Override
    public String rule() {
        return "after a round's last fault healed, sign-in, a billing write, a cap change, a build and a new app's first opening"
                + " each work within the recovery bound";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        long bound = bounds.recovery().toMillis();
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Recovery r : history.recoveries()) {
            for (String path : Recovery.PATHS) {
                checks++;
                long ok = r.firstOk().getOrDefault(path, -1L);
                if (ok < 0) {
                    violations.add(new Violation(r.healed(), "round " + r.round() + ": " + path + " did not work again within "
                            + (r.gaveUp() - r.healed()) / 1000 + " s of the heal", opsOf(history, r.round(), path)));
                } else if (ok - r.healed() > bound) {
                    violations.add(new Violation(r.healed(), "round " + r.round() + ": " + path + " worked again only "
                            + (ok - r.healed()) / 1000 + " s after the heal", opsOf(history, r.round(), path)));
                }
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }

    /** The probe's failed requests of that round and path (at most 5: the first and the last). */
    private static List<Long> opsOf(History history, int round, String path) {
        List<Long> ids = history.ops().stream().filter(o -> o.fact("probe").equals(path) && o.fact("round").equals(Integer.toString(round))
                && !o.ok() && o.status() != 302).map(o -> o.id()).toList();
        if (ids.size() <= 5) {
            return ids;
        }
        return List.of(ids.get(0), ids.get(1), ids.get(ids.size() - 2), ids.get(ids.size() - 1));
    }
}
