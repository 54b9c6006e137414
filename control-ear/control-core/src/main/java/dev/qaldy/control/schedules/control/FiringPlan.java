package dev.qaldy.control.schedules.control;

import dev.qaldy.control.schedules.entity.CronRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * What one page of schedules fires at one instant: the runs to queue and each schedule's new last
 * fired tick, decided in memory from the schedules' rows so the page can be written as a set (one
 * transaction, batched inserts, one UPDATE per distinct tick). Pure: no database, no clock.
 * <p>
 * Each schedule is planned at most twice ({@link CatchUpPlanner}: a catch-up, then asked again,
 * which finds nothing more once the catch-up carried the tick due now). Plans are remembered per
 * (rule, last fired tick or creation) within the page: after an outage thousands of schedules share
 * both, and the plan depends on nothing else.
 */
public final class FiringPlan {

    /** One schedule's row as read for firing; {@code lastFired} null until its first run. */
    public record Row(long scheduleId, long appId, String cron, String zone, String job, Instant createdAt, Instant lastFired) {
    }

    /** One run to queue: actor {@code scheduler.catchup} when {@code catchUp}, else {@code scheduler}. */
    public record Planned(long scheduleId, long appId, String appName, String job, Instant tick, boolean catchUp) {
    }

    private final List<Planned> runs;
    private final Map<Instant, List<Long>> lastFired;

    private FiringPlan(List<Planned> runs, Map<Instant, List<Long>> lastFired) {
        this.runs = List.copyOf(runs);
        this.lastFired = lastFired;
    }

    /**
     * Plans a page.
     *
     * @param appNames the apps' names by id
     * @param rules    the parsed rule of (expression, zone)
     * @throws IllegalStateException when a row names an app that is not in {@code appNames}, or a
     *                               plan would not move a schedule's last fired tick forward
     */
    public static FiringPlan of(List<Row> rows, Map<Long, String> appNames, Instant now, CatchUpPlanner planner,
            BiFunction<String, String, CronRule> rules) {
        Objects.requireNonNull(now, "now");
        record Memo(CronRule rule, Instant baseline) {
        }
        Map<Memo, CatchUpPlanner.Plan> plans = new HashMap<>();
        List<Planned> runs = new ArrayList<>();
        Map<Instant, List<Long>> lastFired = new LinkedHashMap<>();
        for (Row row : rows) {
            CronRule rule = rules.apply(row.cron(), row.zone());
            String appName = appNames.get(row.appId());
            Instant last = row.lastFired();
            Instant firedNow = null;
            for (int round = 0; round < 2; round++) {
                Instant baseline = last != null ? last : row.createdAt();
                CatchUpPlanner.Plan plan = plans.computeIfAbsent(new Memo(rule, baseline),
                        memo -> planner.plan(now, rule, null, memo.baseline()));
                Instant tick = plan instanceof CatchUpPlanner.CatchUp up ? up.tick()
                        : plan instanceof CatchUpPlanner.Ordinary ordinary ? ordinary.tick() : null;
                if (tick == null) {
                    break;
                }
                if (appName == null || (last != null && !tick.isAfter(last))) {
                    throw new IllegalStateException("schedule " + row.scheduleId() + ": no app, or tick " + tick + " not after " + last);
                }
                boolean catchUp = plan instanceof CatchUpPlanner.CatchUp;
                runs.add(new Planned(row.scheduleId(), row.appId(), appName, row.job(), tick, catchUp));
                firedNow = tick;
                last = tick;
                if (!catchUp) {
                    break;
                }
            }
            if (firedNow != null) {
                lastFired.computeIfAbsent(firedNow, tick -> new ArrayList<>()).add(row.scheduleId());
            }
        }
        return new FiringPlan(runs, lastFired);
    }

    /** The runs to queue, in the order of the rows. */
    public List<Planned> runs() {
        return runs;
    }

    /** Schedules whose last fired tick moves, grouped by that tick (one UPDATE each), in first-seen order. */
    public Map<Instant, List<Long>> lastFired() {
        return lastFired;
    }
}
