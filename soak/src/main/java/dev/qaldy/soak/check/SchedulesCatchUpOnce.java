package dev.qaldy.soak.check;

import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Run;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Seed: "Nothing fires while the API is down. When it returns, a schedule that missed a tick in
 * the last 6 hours runs once, to catch up … Older ticks are not made up." Per schedule: at most
 * one catch-up run for the ticks of one outage of the scheduler (a catch-up carries the newest
 * missed tick, or the one due when it is planned: from the outage's start to twice the tick
 * interval after its end; a later one only of a tick that came due after the first was made), none of a tick older than the catch-up window when it was queued, no
 * tick run twice, and no ordinary run of a tick at which the scheduler was certainly away (longer
 * than a tick may be late). A scheduler that runs late on a loaded machine also labels a late tick
 * a catch-up; one of a tick outside every outage is not the outage's and is not counted.
 */
public final class SchedulesCatchUpOnce implements Invariant {

    static final String CATCH_UP = "scheduler.catchup";

    @Override
    public String name() {
        return "Each schedule catches up at most once per outage";
    }

    @Override
    public String rule() {
        return "per schedule and outage at most one catch-up run, none older than the catch-up window, no tick run twice,"
                + " nothing fired while the scheduler was away";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        List<Interval> away = new Windows(history, bounds).schedulerCertainlyAway();
        long late = 2 * bounds.tickInterval().toMillis() + 1000;
        Map<Long, List<Run>> bySchedule = new TreeMap<>();
        for (Run run : history.runs()) {
            if (run.schedule() != null) {
                bySchedule.computeIfAbsent(run.schedule(), k -> new ArrayList<>()).add(run);
            }
        }
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Map.Entry<Long, List<Run>> e : bySchedule.entrySet()) {
            Map<Integer, List<Run>> perOutage = new HashMap<>();
            Map<Long, List<Run>> perTick = new HashMap<>();
            for (Run run : e.getValue()) {
                checks++;
                perTick.computeIfAbsent(run.tick(), k -> new ArrayList<>()).add(run);
                if (run.actor().equals(CATCH_UP)) {
                    int outage = outageOf(away, run.tick(), late);
                    if (outage >= 0) {
                        perOutage.computeIfAbsent(outage, k -> new ArrayList<>()).add(run);
                    }
                    if (run.createdAt() - run.tick() > bounds.catchUpWindow().toMillis() + late) {
                        violations.add(new Violation(run.createdAt(), "schedule " + e.getKey() + " caught up a tick older than the "
                                + bounds.catchUpWindow().toSeconds() + " s window: " + run.line(), List.of()));
                    }
                } else if (run.actor().equals("scheduler")) {
                    for (Interval i : away) {
                        if (run.tick() >= i.from() && run.tick() < i.to() - late) {
                            violations.add(new Violation(run.createdAt(), "schedule " + e.getKey() + " fired a tick at which the"
                                    + " scheduler was away (" + Instant.ofEpochMilli(i.from()) + " to " + Instant.ofEpochMilli(i.to())
                                    + ") as an ordinary run: " + run.line(), List.of()));
                        }
                    }
                }
            }
            perOutage.forEach((outage, runs) -> {
                List<Run> again = againOf(runs);
                if (!again.isEmpty()) {
                    violations.add(new Violation(again.get(0).createdAt(), "schedule " + e.getKey() + " caught up " + runs.size()
                            + " times for the outage from " + Instant.ofEpochMilli(away.get(outage).from()) + " to "
                            + Instant.ofEpochMilli(away.get(outage).to()) + ": " + runs.stream().map(Run::line).toList(),
                            List.of()));
                }
            });
            perTick.forEach((tick, runs) -> {
                if (tick >= 0 && runs.size() > 1) {
                    violations.add(new Violation(runs.get(1).createdAt(), "schedule " + e.getKey() + " ran tick "
                            + Instant.ofEpochMilli(tick) + " " + runs.size() + " times: " + runs.stream().map(Run::line).toList(),
                            List.of()));
                }
            });
        }
        return new Verdict(name(), rule(), checks, violations);
    }

    /**
     * The catch-ups of one outage that make up again what the first one (the earliest made) already
     * could: those of a tick no later than its making. A tick that came due after it was made was
     * not missed by that planning; a scheduler running late labels it a catch-up too (as
     * PostgresCellIT's two control planes judge it).
     */
    static List<Run> againOf(List<Run> catchUps) {
        Run first = catchUps.stream().min(java.util.Comparator.comparingLong(Run::createdAt)).orElseThrow();
        return catchUps.stream().filter(r -> r != first && r.tick() <= first.createdAt()).toList();
    }

    /** The index of the outage whose ticks {@code tick} is one of (its span and {@code late} after it), -1 for none. */
    static int outageOf(List<Interval> away, long tick, long late) {
        for (int i = 0; i < away.size(); i++) {
            if (tick >= away.get(i).from() && tick <= away.get(i).to() + late) {
                return i;
            }
        }
        return -1;
    }
}
