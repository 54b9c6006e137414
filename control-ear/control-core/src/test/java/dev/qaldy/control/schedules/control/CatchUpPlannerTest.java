package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.schedules.control.CatchUpPlanner.CatchUp;
import dev.qaldy.control.schedules.control.CatchUpPlanner.Nothing;
import dev.qaldy.control.schedules.control.CatchUpPlanner.Ordinary;
import dev.qaldy.control.schedules.control.CatchUpPlanner.Plan;
import dev.qaldy.control.schedules.entity.CronRule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The catch-up rules, table-driven: (cron, zone, last fired, created, now) → the plan. Window 6 h, grace 30 s. */
class CatchUpPlannerTest {

    static final CatchUpPlanner PLANNER = new CatchUpPlanner(Duration.ofHours(6), Duration.ofSeconds(30));
    static final String HOURLY = "0 * * * *";
    static final String DAILY_0230 = "30 2 * * *";

    static Instant at(String iso) {
        return iso.endsWith("Z") ? Instant.parse(iso) : ZonedDateTime.parse(iso).toInstant();
    }

    static Arguments row(String why, String cron, String zone, String lastFired, String created, String now, Plan expected) {
        return Arguments.of(why, cron, zone, lastFired, created, now, expected);
    }

    static Plan catchUp(String tick) {
        return new CatchUp(at(tick));
    }

    static Plan ordinary(String tick) {
        return new Ordinary(at(tick));
    }

    static Stream<Arguments> table() {
        String created = "2026-01-01T00:00:00Z";
        return Stream.of(
                row("three missed hourly ticks within 6 h → one catch-up, for the newest",
                        HOURLY, "UTC", "2026-11-30T09:00:00Z", created, "2026-11-30T12:20:00Z", catchUp("2026-11-30T12:00:00Z")),
                row("one missed tick → one catch-up",
                        HOURLY, "UTC", "2026-11-30T11:00:00Z", created, "2026-11-30T12:05:00Z", catchUp("2026-11-30T12:00:00Z")),
                row("down longer than the window, no tick within it (daily job) → nothing",
                        DAILY_0230, "UTC", "2026-11-29T02:30:00Z", created, "2026-11-30T09:00:00Z", new Nothing()),
                row("a missed tick just inside the window → catch-up",
                        DAILY_0230, "UTC", "2026-11-29T02:30:00Z", created, "2026-11-30T08:29:00Z", catchUp("2026-11-30T02:30:00Z")),
                row("down 10 h, hourly: ticks older than 6 h are not made up, the newest missed one is",
                        HOURLY, "UTC", "2026-11-30T02:00:00Z", created, "2026-11-30T12:20:00Z", catchUp("2026-11-30T12:00:00Z")),
                row("the tick due right now is an ordinary tick",
                        HOURLY, "UTC", "2026-11-30T11:00:00Z", created, "2026-11-30T12:00:10Z", ordinary("2026-11-30T12:00:00Z")),
                row("missed ticks and one due now → one catch-up, which covers the tick due now",
                        HOURLY, "UTC", "2026-11-30T09:00:00Z", created, "2026-11-30T12:00:10Z", catchUp("2026-11-30T12:00:00Z")),
                row("… then nothing more: the tick due now is not run a second time",
                        HOURLY, "UTC", "2026-11-30T12:00:00Z", created, "2026-11-30T12:00:12Z", new Nothing()),
                row("between ticks, nothing missed → nothing",
                        HOURLY, "UTC", "2026-11-30T12:00:00Z", created, "2026-11-30T12:40:00Z", new Nothing()),
                row("clock stepped back below the last fired tick → nothing",
                        HOURLY, "UTC", "2026-11-30T12:00:00Z", created, "2026-11-30T11:30:00Z", new Nothing()),
                row("clock stepped back onto an older tick time → that tick is not re-fired",
                        HOURLY, "UTC", "2026-11-30T12:00:00Z", created, "2026-11-30T11:00:05Z", new Nothing()),
                row("clock stepped forward three hours → a gap like any other: one catch-up",
                        HOURLY, "UTC", "2026-11-30T12:00:00Z", created, "2026-11-30T15:10:00Z", catchUp("2026-11-30T15:00:00Z")),
                row("never fired: ticks before the schedule was added are not due",
                        HOURLY, "UTC", null, "2026-11-30T10:05:00Z", "2026-11-30T10:30:00Z", new Nothing()),
                row("never fired: the first tick after it was added is an ordinary tick",
                        HOURLY, "UTC", null, "2026-11-30T10:05:00Z", "2026-11-30T11:00:03Z", ordinary("2026-11-30T11:00:00Z")),
                row("never fired and down since: one catch-up",
                        HOURLY, "UTC", null, "2026-11-30T10:05:00Z", "2026-11-30T13:20:00Z", catchUp("2026-11-30T13:00:00Z")),
                row("a zone is honoured: 02:30 in Berlin is 01:30 UTC in winter",
                        DAILY_0230, "Europe/Berlin", "2026-11-29T01:30:00Z", created, "2026-11-30T01:30:05Z", ordinary("2026-11-30T01:30:00Z")),
                row("spring forward, 02:30 does not exist in Berlin: it runs at 03:30 CEST, an ordinary tick",
                        DAILY_0230, "Europe/Berlin", "2026-03-28T02:30+01:00", created, "2026-03-29T03:30:05+02:00",
                        ordinary("2026-03-29T03:30+02:00")),
                row("fall back: the first 02:30 (CEST) runs",
                        DAILY_0230, "Europe/Berlin", "2026-10-24T02:30+02:00", created, "2026-10-25T02:30:05+02:00",
                        ordinary("2026-10-25T02:30+02:00")),
                row("fall back: the repeated 02:30 (CET) is no second tick of a daily schedule",
                        DAILY_0230, "Europe/Berlin", "2026-10-25T02:30+02:00", created, "2026-10-25T02:30:05+01:00", new Nothing()),
                row("fall back, hourly: the repeated hour keeps its tick at 02:00 CET",
                        HOURLY, "Europe/Berlin", "2026-10-25T02:00+02:00", created, "2026-10-25T02:00:05+01:00",
                        ordinary("2026-10-25T02:00+01:00")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void plans(String why, String cron, String zone, String lastFired, String created, String now, Plan expected) {
        Plan plan = PLANNER.plan(at(now), CronRule.of(cron, zone), lastFired == null ? null : at(lastFired), at(created));
        assertThat(plan).as(why).isEqualTo(expected);
    }

    /** Runs the planner as the timer does (every 15 s, firing each plan) and returns the fired ticks with their kind. */
    static List<String> simulate(String cron, String zone, String from, String to, Duration step, List<String> downRanges) {
        CronRule rule = CronRule.of(cron, zone);
        List<String> fired = new ArrayList<>();
        Instant lastFired = null;
        Instant created = at(from);
        for (Instant now = at(from); !now.isAfter(at(to)); now = now.plus(step)) {
            Instant t = now;
            if (downRanges.stream().map(r -> r.split("/")).anyMatch(r -> !t.isBefore(at(r[0])) && t.isBefore(at(r[1])))) {
                continue;
            }
            for (int round = 0; round < 2; round++) {
                Plan plan = PLANNER.plan(now, rule, lastFired, created);
                if (plan instanceof CatchUp up) {
                    fired.add("catch-up " + up.tick().atZone(rule.zone()).toOffsetDateTime());
                    lastFired = up.tick();
                } else if (plan instanceof Ordinary ordinary) {
                    fired.add(ordinary.tick().atZone(rule.zone()).toOffsetDateTime().toString());
                    lastFired = ordinary.tick();
                    break;
                } else {
                    break;
                }
            }
        }
        return fired;
    }

    @Test
    void europe_berlin_0230_daily_runs_once_on_the_spring_forward_day_at_0330_cest() {
        assertThat(simulate(DAILY_0230, "Europe/Berlin", "2026-03-28T00:00+01:00", "2026-03-30T12:00+02:00",
                Duration.ofSeconds(15), List.of()))
                .containsExactly("2026-03-28T02:30+01:00", "2026-03-29T03:30+02:00", "2026-03-30T02:30+02:00");
    }

    @Test
    void europe_berlin_0230_daily_runs_once_on_the_fall_back_day_at_the_first_0230() {
        assertThat(simulate(DAILY_0230, "Europe/Berlin", "2026-10-24T00:00+02:00", "2026-10-26T12:00+01:00",
                Duration.ofSeconds(15), List.of()))
                .containsExactly("2026-10-24T02:30+02:00", "2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00");
    }

    @Test
    void hourly_in_berlin_fires_23_times_on_the_spring_day_and_25_on_the_fall_day() {
        List<String> spring = simulate(HOURLY, "Europe/Berlin", "2026-03-28T23:59:50+01:00", "2026-03-29T23:59:50+02:00",
                Duration.ofSeconds(15), List.of());
        assertThat(spring).hasSize(23).doesNotHaveDuplicates().contains("2026-03-29T01:00+01:00", "2026-03-29T03:00+02:00")
                .noneMatch(s -> s.startsWith("catch-up"));
        List<String> fall = simulate(HOURLY, "Europe/Berlin", "2026-10-24T23:59:50+02:00", "2026-10-25T23:59:50+01:00",
                Duration.ofSeconds(15), List.of());
        assertThat(fall).hasSize(25).contains("2026-10-25T02:00+02:00", "2026-10-25T02:00+01:00")
                .noneMatch(s -> s.startsWith("catch-up"));
    }

    @Test
    void an_outage_over_three_hourly_ticks_gives_one_catch_up_then_ordinary_ticks_again() {
        assertThat(simulate(HOURLY, "UTC", "2026-11-30T08:30:00Z", "2026-11-30T14:30:00Z", Duration.ofSeconds(15),
                List.of("2026-11-30T09:30:00Z/2026-11-30T12:20:00Z")))
                .containsExactly("2026-11-30T09:00Z", "catch-up 2026-11-30T12:00Z", "2026-11-30T13:00Z", "2026-11-30T14:00Z");
    }

    @Test
    void back_just_as_a_tick_is_due_the_schedule_runs_once() {
        assertThat(simulate(HOURLY, "UTC", "2026-11-30T08:30:00Z", "2026-11-30T13:30:00Z", Duration.ofSeconds(15),
                List.of("2026-11-30T09:30:00Z/2026-11-30T12:00:05Z")))
                .containsExactly("2026-11-30T09:00Z", "catch-up 2026-11-30T12:00Z", "2026-11-30T13:00Z");
    }

    /**
     * Issue 6's DST bullet with a wall-clock step on top: Berlin's 02:30 daily ran at 03:30 CEST on the
     * spring-forward day; the clock then steps back 90 minutes (01:00 CET, before the gap) and walks
     * over 03:30 CEST again: no second run that day, and the next day's 02:30 CEST runs as usual.
     */
    @Test
    void a_clock_stepping_back_over_the_spring_forward_run_does_not_re_fire_it() {
        CronRule rule = CronRule.of(DAILY_0230, "Europe/Berlin");
        Instant fired = at("2026-03-29T03:30+02:00");
        Instant created = at("2026-03-01T00:00:00Z");
        for (Instant now = at("2026-03-29T01:00+01:00"); now.isBefore(at("2026-03-30T02:29:59+02:00")); now = now.plusSeconds(15)) {
            assertThat(PLANNER.plan(now, rule, fired, created)).as(now.toString()).isEqualTo(new Nothing());
        }
        assertThat(PLANNER.plan(at("2026-03-30T02:30:05+02:00"), rule, fired, created)).isEqualTo(ordinary("2026-03-30T02:30+02:00"));
    }

    @Test
    void the_clock_stepping_back_an_hour_re_fires_nothing() {
        CronRule rule = CronRule.of(HOURLY, "UTC");
        Instant fired = at("2026-11-30T12:00:00Z");
        for (Instant now = at("2026-11-30T11:00:00Z"); now.isBefore(at("2026-11-30T12:59:59Z")); now = now.plusSeconds(15)) {
            assertThat(PLANNER.plan(now, rule, fired, at("2026-01-01T00:00:00Z"))).as(now.toString()).isEqualTo(new Nothing());
        }
    }
}
