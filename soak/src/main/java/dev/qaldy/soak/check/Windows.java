package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Fault;
import dev.qaldy.soak.history.FaultKind;
import dev.qaldy.soak.history.History;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * When what was away, from a history's faults: the "certainly" windows (from {@code down} to
 * {@code up}: the component served nothing) for invariants that expect outage behaviour, and the
 * "maybe" windows (from {@code start} to {@code ready} plus the settle time) for those that
 * expect normal behaviour. The API fails when its process ("control") or its database ("db") is
 * away; the gates ask only the first control plane.
 */
public final class Windows {

    private final History history;
    private final Bounds bounds;

    public Windows(History history, Bounds bounds) {
        this.history = history;
        this.bounds = bounds;
    }

    /** The API certainly failing: the control plane or its database certainly away (merged). */
    public List<Interval> apiCertainlyFailing() {
        return certainly(f -> f.component().equals("control") || f.component().equals("db"));
    }

    /** The API maybe failing (merged, each stretched by the settle time). */
    public List<Interval> apiMaybeFailing() {
        return maybe(f -> f.component().equals("control") || f.component().equals("db"));
    }

    /** {@code component} maybe away (merged, stretched by the settle time). */
    public List<Interval> maybeAway(String component) {
        return maybe(f -> f.component().equals(component));
    }

    /** {@code component} maybe restarted (killed, stopped or restarted: what it held in memory may be gone). */
    public List<Interval> maybeRestarted(String component) {
        return maybe(f -> f.component().equals(component) && f.kind().restarts());
    }

    /** The API certainly hanging: the control plane or its database SIGSTOPped, or the control plane cut off (no answer either). */
    public List<Interval> apiCertainlyHanging() {
        return certainly(f -> (f.component().equals("control") || f.component().equals("db"))
                && (f.kind() == FaultKind.PAUSE || f.kind() == FaultKind.CUT));
    }

    /**
     * The scheduler certainly away: its database, or every control plane that runs it (the first,
     * and the second when the cell has one), certainly away at once. A control plane cut off from
     * the edge is not away: it reaches its database and keeps firing ticks, whose runs wait.
     */
    public List<Interval> schedulerCertainlyAway() {
        List<Interval> db = certainly(f -> f.component().equals("db"));
        List<Interval> control = certainly(f -> f.component().equals("control") && f.kind() != FaultKind.CUT);
        List<Interval> both = control;
        if (history.has("control2")) {
            both = intersect(control, certainly(f -> f.component().equals("control2") && f.kind() != FaultKind.CUT));
        }
        List<Interval> all = new ArrayList<>(db);
        all.addAll(both);
        return Interval.merged(all);
    }

    private List<Interval> certainly(Predicate<Fault> which) {
        List<Interval> out = new ArrayList<>();
        for (Fault f : history.faults()) {
            if (which.test(f)) {
                out.add(new Interval(f.down(), f.up()));
            }
        }
        return Interval.merged(out);
    }

    private List<Interval> maybe(Predicate<Fault> which) {
        List<Interval> out = new ArrayList<>();
        for (Fault f : history.faults()) {
            if (which.test(f)) {
                long back = f.ready() < 0 ? Long.MAX_VALUE / 2 : f.ready() + bounds.settle().toMillis();
                out.add(new Interval(f.start(), back));
            }
        }
        return Interval.merged(out);
    }

    static List<Interval> intersect(List<Interval> a, List<Interval> b) {
        List<Interval> out = new ArrayList<>();
        for (Interval x : a) {
            for (Interval y : b) {
                long from = Math.max(x.from(), y.from());
                long to = Math.min(x.to(), y.to());
                if (from <= to) {
                    out.add(new Interval(from, to));
                }
            }
        }
        return Interval.merged(out);
    }
}
