package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.schedules.entity.CronRule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** A page of schedules planned as a set: one run per schedule at most, last fired ticks grouped per tick. */
class FiringPlanTest {

    static final CatchUpPlanner PLANNER = new CatchUpPlanner(Duration.ofHours(6), Duration.ofSeconds(30));
    static final Instant NOW = Instant.parse("2026-11-30T12:20:10Z");
    static final Instant CREATED = Instant.parse("2026-11-30T08:00:00Z");
    static final Map<Long, String> APPS = Map.of(1L, "shop", 2L, "blog");
    static final BiFunction<String, String, CronRule> PARSE = (cron, zone) -> CronRule.of(cron, zone, true);

    static FiringPlan.Row row(long id, long app, String cron, String lastFired) {
        return new FiringPlan.Row(id, app, cron, "UTC", "digest", CREATED, lastFired == null ? null : Instant.parse(lastFired));
    }

    @Test
    void everyScheduleOfABigPageThatMissedTicksGetsExactlyOneCatchUp() {
        List<FiringPlan.Row> rows = new ArrayList<>();
        for (long id = 1; id <= 5_000; id++) {
            rows.add(row(id, 1 + id % 2, "*/5 * * * *", "2026-11-30T09:20:00Z")); // ~36 ticks missed each
        }
        AtomicInteger parsed = new AtomicInteger();
        FiringPlan plan = FiringPlan.of(rows, APPS, NOW, PLANNER, (cron, zone) -> {
            parsed.incrementAndGet();
            return PARSE.apply(cron, zone);
        });
        assertThat(plan.runs()).hasSize(5_000).allSatisfy(run -> {
            assertThat(run.catchUp()).isTrue();
            assertThat(run.tick()).isEqualTo(Instant.parse("2026-11-30T12:20:00Z"));
            assertThat(run.appName()).isEqualTo(run.appId() == 1 ? "shop" : "blog");
        });
        assertThat(plan.runs().stream().map(FiringPlan.Planned::scheduleId).distinct()).hasSize(5_000);
        assertThat(plan.lastFired()).as("one UPDATE for the page").hasSize(1)
                .containsKey(Instant.parse("2026-11-30T12:20:00Z"));
        assertThat(plan.lastFired().get(Instant.parse("2026-11-30T12:20:00Z"))).hasSize(5_000);
        assertThat(parsed).as("the caller's cache is asked per row").hasValue(5_000);
    }

    @Test
    void aMixedPageGivesEachScheduleWhatTheRulesSay() {
        FiringPlan plan = FiringPlan.of(List.of(
                row(1, 1, "0 * * * *", "2026-11-30T09:00:00Z"),     // missed 10:00, 11:00, 12:00 → one catch-up
                row(2, 1, "20 * * * *", "2026-11-30T11:20:00Z"),    // 12:20 due now → ordinary
                row(3, 2, "0 * * * *", "2026-11-30T12:00:00Z"),     // fired already → nothing
                row(4, 2, "*/5 * * * *", null),                     // never fired, created 08:00 → one catch-up
                row(5, 2, "30 2 * * *", "2026-11-30T02:30:00Z")),   // next tick tomorrow → nothing
                APPS, NOW, PLANNER, PARSE);
        assertThat(plan.runs()).extracting(FiringPlan.Planned::scheduleId, FiringPlan.Planned::catchUp, FiringPlan.Planned::tick)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, true, Instant.parse("2026-11-30T12:00:00Z")),
                        org.assertj.core.groups.Tuple.tuple(2L, false, Instant.parse("2026-11-30T12:20:00Z")),
                        org.assertj.core.groups.Tuple.tuple(4L, true, Instant.parse("2026-11-30T12:20:00Z")));
        assertThat(plan.lastFired()).containsExactly(
                Map.entry(Instant.parse("2026-11-30T12:00:00Z"), List.of(1L)),
                Map.entry(Instant.parse("2026-11-30T12:20:00Z"), List.of(2L, 4L)));
    }

    @Test
    void schedulesSharingARuleButNotTheirLastTickArePlannedApart() {
        FiringPlan plan = FiringPlan.of(List.of(
                row(1, 1, "0 * * * *", "2026-11-30T09:00:00Z"),
                row(2, 1, "0 * * * *", "2026-11-30T12:00:00Z"),
                row(3, 1, "0 * * * *", "2026-11-30T09:00:00Z")),
                APPS, NOW, PLANNER, PARSE);
        assertThat(plan.runs()).extracting(FiringPlan.Planned::scheduleId).containsExactly(1L, 3L);
    }

    @Test
    void aRowWhoseAppIsGoneFailsThePage() {
        assertThatThrownBy(() -> FiringPlan.of(List.of(row(1, 1, "0 * * * *", "2026-11-30T09:00:00Z"),
                row(2, 99, "0 * * * *", "2026-11-30T09:00:00Z")), APPS, NOW, PLANNER, PARSE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("schedule 2");
    }

    @Test
    void anEmptyPagePlansNothing() {
        FiringPlan plan = FiringPlan.of(List.of(), APPS, NOW, PLANNER, PARSE);
        assertThat(plan.runs()).isEmpty();
        assertThat(plan.lastFired()).isEmpty();
    }
}
