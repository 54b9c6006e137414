package dev.qaldy.soak.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A closed stretch of time [from, to], epoch ms. */
public record Interval(long from, long to) {

    public boolean contains(long t) {
        return t >= from && t <= to;
    }

    /** Whether [a, b] lies wholly inside. */
    public boolean covers(long a, long b) {
        return a >= from && b <= to;
    }

    public boolean overlaps(long a, long b) {
        return a <= to && b >= from;
    }

    /** Overlapping or touching intervals joined, in order. */
    public static List<Interval> merged(List<Interval> intervals) {
        List<Interval> sorted = new ArrayList<>(intervals.stream().filter(i -> i.to >= i.from).toList());
        sorted.sort(Comparator.comparingLong(Interval::from));
        List<Interval> out = new ArrayList<>();
        for (Interval i : sorted) {
            if (!out.isEmpty() && i.from <= out.get(out.size() - 1).to) {
                Interval last = out.remove(out.size() - 1);
                out.add(new Interval(last.from, Math.max(last.to, i.to)));
            } else {
                out.add(i);
            }
        }
        return out;
    }

    /** The interval of {@code intervals} containing {@code t}, or null. */
    public static Interval at(List<Interval> intervals, long t) {
        for (Interval i : intervals) {
            if (i.contains(t)) {
                return i;
            }
        }
        return null;
    }

    /** Whether any of {@code intervals} overlaps [a, b]. */
    public static boolean anyOverlaps(List<Interval> intervals, long a, long b) {
        for (Interval i : intervals) {
            if (i.overlaps(a, b)) {
                return true;
            }
        }
        return false;
    }
}
