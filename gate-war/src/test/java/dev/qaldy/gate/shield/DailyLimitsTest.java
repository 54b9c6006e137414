package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.shield.DailyLimits.Outcome;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DailyLimitsTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static FakeTime at(String localDateTime, ZoneId zone) {
        return new FakeTime(LocalDateTime.parse(localDateTime).atZone(zone).toInstant());
    }

    private static int countAll(DailyLimits days, String app, long perDay) {
        int counted = 0;
        while (days.count(app, perDay).allowed()) {
            counted++;
        }
        return counted;
    }

    @Test
    void countsRequestsPerAppPerDay() {
        FakeTime time = at("2025-06-01T09:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        Outcome first = days.count("guestbook", 3);
        assertThat(first.allowed()).isTrue();
        assertThat(first.remaining()).isEqualTo(2);
        assertThat(days.count("guestbook", 3).allowed()).isTrue();
        assertThat(days.count("guestbook", 3).allowed()).isTrue();
        Outcome over = days.count("guestbook", 3);
        assertThat(over.allowed()).isFalse();
        assertThat(over.firstRefusal()).isTrue();
        assertThat(over.nanosToNextDay()).isEqualTo(Duration.ofHours(15).toNanos());
        assertThat(over.nextDay()).isEqualTo(ZonedDateTime.parse("2025-06-02T00:00Z[UTC]"));
        assertThat(days.count("guestbook", 3).firstRefusal()).as("logged once a day").isFalse();
        assertThat(days.count("memo", 3).allowed()).as("another app counts apart").isTrue();

        time.pass(Duration.ofHours(15).minusNanos(1));
        assertThat(days.count("guestbook", 3).allowed()).isFalse();
        time.pass(Duration.ofNanos(1));
        assertThat(countAll(days, "guestbook", 3)).as("a new day at midnight UTC").isEqualTo(3);
    }

    /**
     * Walks across Berlin's spring-forward day (2025-03-30, 23 hours) and fall-back day
     * (2025-10-26, 25 hours) in 7-minute steps with one request allowed a day: exactly one
     * request gets through each date, the first one at or after local midnight.
     */
    @ParameterizedTest(name = "{0}: a {1}-hour day")
    @CsvSource({"2025-03-30, 23", "2025-10-26, 25", "2025-06-15, 24"})
    void theDayResetsExactlyOnceOnDstDays(LocalDate date, int hours) {
        FakeTime time = at(date.minusDays(1) + "T20:00", BERLIN);
        DailyLimits days = new DailyLimits(time, time, BERLIN, 100);
        List<ZonedDateTime> allowed = new ArrayList<>();
        ZonedDateTime end = date.plusDays(2).atTime(4, 0).atZone(BERLIN);
        while (time.instant().isBefore(end.toInstant())) {
            if (days.count("guestbook", 1).allowed()) {
                allowed.add(time.instant().atZone(BERLIN));
            }
            time.pass(Duration.ofMinutes(7));
        }
        assertThat(allowed).extracting(ZonedDateTime::toLocalDate)
                .containsExactly(date.minusDays(1), date, date.plusDays(1), date.plusDays(2));
        assertThat(Duration.between(allowed.get(1).toLocalDate().atStartOfDay(BERLIN), allowed.get(1))).isLessThan(Duration.ofMinutes(7));
        assertThat(Duration.between(allowed.get(2).toLocalDate().atStartOfDay(BERLIN), allowed.get(2))).isLessThan(Duration.ofMinutes(7));
        assertThat(Duration.between(allowed.get(1), allowed.get(2)))
                .isBetween(Duration.ofHours(hours).minusMinutes(7), Duration.ofHours(hours).plusMinutes(7));
    }

    @ParameterizedTest(name = "{0}: a {1}-hour day")
    @CsvSource({"2025-03-30, 23", "2025-10-26, 25"})
    void aBlockedAppWaitsTheDaysRealLength(LocalDate date, int hours) {
        FakeTime time = at(date + "T00:00", BERLIN);
        DailyLimits days = new DailyLimits(time, time, BERLIN, 100);
        assertThat(days.count("guestbook", 1).allowed()).isTrue();
        Outcome over = days.count("guestbook", 1);
        assertThat(over.allowed()).isFalse();
        assertThat(Duration.ofNanos(over.nanosToNextDay())).isEqualTo(Duration.ofHours(hours));
        time.pass(Duration.ofHours(hours).minusSeconds(1));
        assertThat(days.count("guestbook", 1).allowed()).isFalse();
        time.pass(Duration.ofSeconds(1));
        assertThat(days.count("guestbook", 1).allowed()).isTrue();
    }

    @ParameterizedTest(name = "the wall clock steps back {0}")
    @CsvSource({"PT1H", "PT3H", "P1D", "P3D"})
    void aStepBackNeverReopensAnEarlierDayOrResetsToday(Duration back) {
        FakeTime time = at("2025-06-02T01:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countAll(days, "guestbook", 5)).isEqualTo(5);

        time.stepWall(back.negated()); // e.g. back into 2025-06-01
        assertThat(days.count("guestbook", 5).allowed()).as("today's count stands").isFalse();
        time.pass(Duration.ofHours(1));
        assertThat(days.count("guestbook", 5).allowed()).isFalse();

        // 02:00 in truth: the day ends once the wall clock reaches the next date, later by the step, never earlier
        Outcome waiting = days.count("guestbook", 5);
        assertThat(waiting.nanosToNextDay()).isEqualTo(Duration.ofHours(22).plus(back).toNanos());
        time.pass(Duration.ofNanos(waiting.nanosToNextDay() - 1));
        assertThat(days.count("guestbook", 5).allowed()).isFalse();
        time.pass(Duration.ofNanos(1));
        assertThat(countAll(days, "guestbook", 5)).as("then exactly one new day").isEqualTo(5);
    }

    @ParameterizedTest(name = "the wall clock steps forward {0}")
    @CsvSource({"PT3H", "PT23H", "P1D", "P3D"})
    void aStepForwardNeverStartsTheNextDayEarly(Duration forward) {
        FakeTime time = at("2025-06-01T22:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countAll(days, "guestbook", 5)).isEqualTo(5);

        time.stepWall(forward); // the wall clock now shows a later date
        assertThat(days.count("guestbook", 5).allowed()).as("no new day from a step").isFalse();
        time.pass(Duration.ofMinutes(119));
        assertThat(days.count("guestbook", 5).allowed()).as("the day had 2 hours left").isFalse();
        time.pass(Duration.ofMinutes(1));
        assertThat(countAll(days, "guestbook", 5)).as("the next day starts on time, once").isEqualTo(5);
        assertThat(days.count("guestbook", 5).allowed()).isFalse();
    }

    /**
     * Issue 5's "Time" bullet, both at once: Berlin's 25-hour fall-back day and a wall-clock step
     * back of an hour just after its midnight. Today's count stands, no earlier day reopens, and the
     * next day starts once, when the wall clock reaches 2025-10-27 00:00 (25 h 30 min of real time
     * after 00:30 CEST, the hour of the step included), never before.
     */
    @Test
    void onTheTwentyFiveHourDayAWallStepBackNeitherReopensYesterdayNorResetsTwice() {
        FakeTime time = at("2025-10-26T00:30", BERLIN);
        DailyLimits days = new DailyLimits(time, time, BERLIN, 100);
        assertThat(countAll(days, "guestbook", 3)).isEqualTo(3);
        time.stepWall(Duration.ofHours(-1)); // the wall clock shows 2025-10-25 23:30
        Outcome held = days.count("guestbook", 3);
        assertThat(held.allowed()).as("yesterday is not reopened").isFalse();
        assertThat(Duration.ofNanos(held.nanosToNextDay())).isEqualTo(Duration.ofHours(25).plusMinutes(30));
        assertThat(countAll(days, "memo", 3)).as("an app first seen after the step is not blocked").isEqualTo(3);

        time.pass(Duration.ofHours(25).plusMinutes(30).minusSeconds(1));
        assertThat(days.count("guestbook", 3).allowed()).isFalse();
        time.pass(Duration.ofSeconds(1));
        assertThat(countAll(days, "guestbook", 3)).as("the next day, once").isEqualTo(3);
        time.pass(Duration.ofHours(23));
        assertThat(days.count("guestbook", 3).allowed()).as("no second reset within that day").isFalse();
    }

    @Test
    void aStepForwardDoesNotBlockAnAppThatHasRequestsLeft() {
        FakeTime time = at("2025-06-01T22:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(days.count("guestbook", 5).allowed()).isTrue();
        time.stepWall(Duration.ofDays(2));
        assertThat(countAll(days, "guestbook", 5)).as("the same day's four left, no more, no fewer").isEqualTo(4);
        assertThat(countAll(days, "memo", 5)).as("an app first seen after the step").isEqualTo(5);
    }

    @Test
    void aCounterIdleForHoursOfItsDayIsStillHeld() {
        FakeTime time = at("2025-06-02T01:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(days.count("guestbook", 1).allowed()).as("one request, its first").isTrue();
        time.pass(DailyLimits.KEPT_AFTER_ITS_DAY.multipliedBy(3));
        days.count("memo", 5); // any write runs the cache's maintenance
        assertThat(days.count("guestbook", 1).allowed()).as("the day's count is kept while the day lasts").isFalse();
        time.pass(Duration.ofHours(18));
        days.count("memo", 5);
        assertThat(days.count("guestbook", 1).allowed()).as("still June 2").isFalse();
    }

    @Test
    void anIdleCounterIsDroppedOnlyAfterItsDayIsOverOnBothClocks() {
        FakeTime time = at("2025-06-02T01:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countAll(days, "guestbook", 5)).isEqualTo(5);
        time.stepWall(Duration.ofDays(-5));
        days.count("guestbook", 5);
        time.pass(Duration.ofDays(4)); // idle for days, the wall clock still on June 1
        assertThat(days.count("guestbook", 5).allowed()).as("still held: the wall clock has not reached June 3").isFalse();
        assertThat(days.size()).isEqualTo(1);

        time.pass(Duration.ofDays(2));
        assertThat(countAll(days, "guestbook", 5)).isEqualTo(5);
        time.pass(Duration.ofDays(1).plus(DailyLimits.KEPT_AFTER_ITS_DAY).plusSeconds(1));
        days.count("memo", 5); // any write runs the cache's maintenance
        assertThat(days.size()).as("the idle counter of a day long over is gone").isEqualTo(1);
    }

    @Test
    void theZoneIsConfigurable() {
        FakeTime time = at("2025-06-01T23:30", ZoneId.of("UTC")); // 01:30 on June 2 in Berlin
        DailyLimits utc = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        DailyLimits berlin = new DailyLimits(time, time, BERLIN, 100);
        utc.count("guestbook", 1);
        berlin.count("guestbook", 1);
        assertThat(Duration.ofNanos(utc.count("guestbook", 1).nanosToNextDay())).isEqualTo(Duration.ofMinutes(30));
        assertThat(Duration.ofNanos(berlin.count("guestbook", 1).nanosToNextDay())).isEqualTo(Duration.ofMinutes(22 * 60 + 30));
    }

    @Test
    void countersAreBoundedAndNeedAMonotonicClock() {
        FakeTime time = at("2025-06-01T12:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 50);
        for (int i = 0; i < 2000; i++) {
            days.count("app" + i, 10);
        }
        assertThat(days.size()).isLessThanOrEqualTo(60);
        assertThatThrownBy(() -> new DailyLimits(time, TimeMeter.SYSTEM_MILLISECONDS, ZoneId.of("UTC"), 10))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aShortenedDayResetsOncePerItsLengthFromTheEpochAndAWallStepBackDoesNotReopenIt() {
        FakeTime time = new FakeTime(Instant.parse("2025-06-01T09:00:10Z"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), Duration.ofSeconds(30), 100);
        assertThat(days.dayRule()).isEqualTo("days of PT30S from the epoch");
        assertThat(countAll(days, "guestbook", 2)).isEqualTo(2);
        Outcome over = days.count("guestbook", 2);
        assertThat(over.nextDay()).isEqualTo(ZonedDateTime.parse("2025-06-01T09:00:30Z[UTC]"));
        assertThat(over.nanosToNextDay()).isEqualTo(Duration.ofSeconds(20).toNanos());

        time.pass(Duration.ofSeconds(20).minusMillis(1));
        assertThat(days.count("guestbook", 2).allowed()).isFalse();
        time.pass(Duration.ofMillis(1));
        assertThat(countAll(days, "guestbook", 2)).as("reset at 09:00:30").isEqualTo(2);
        time.stepWall(Duration.ofSeconds(-45));
        assertThat(days.count("guestbook", 2).allowed()).as("a step back reopens no earlier day").isFalse();
        time.pass(Duration.ofSeconds(30));
        assertThat(days.count("guestbook", 2).allowed()).as("the wall clock, stepped back, is still in the day").isFalse();
        time.pass(Duration.ofSeconds(45));
        assertThat(countAll(days, "guestbook", 2)).isEqualTo(2);
    }

    @Test
    void aDayIsOneSecondToOneDayLong() {
        FakeTime time = new FakeTime(Instant.parse("2025-06-01T09:00:00Z"));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new DailyLimits(time, time, ZoneId.of("UTC"), Duration.ofMillis(999), 100))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new DailyLimits(time, time, ZoneId.of("UTC"), Duration.ofHours(25), 100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new DailyLimits(time, time, ZoneId.of("UTC"), Duration.ofDays(1), 100).dayRule()).isEqualTo("calendar days");
    }

    @Test
    void eachAppCountsItsDayInItsOwnZone() {
        ZoneId kiritimati = ZoneId.of("Pacific/Kiritimati"); // UTC+14: its day starts at 10:00 UTC
        FakeTime time = at("2025-06-01T09:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countIn(days, "utc-app", 2, null)).isEqualTo(2);
        assertThat(countIn(days, "kiri-app", 2, kiritimati)).isEqualTo(2);
        Outcome utcOver = days.count("utc-app", 2, null);
        Outcome kiriOver = days.count("kiri-app", 2, kiritimati);
        assertThat(utcOver.nextDay()).isEqualTo(ZonedDateTime.parse("2025-06-02T00:00Z[UTC]"));
        assertThat(kiriOver.nextDay()).isEqualTo(ZonedDateTime.parse("2025-06-02T00:00+14:00[Pacific/Kiritimati]"));
        assertThat(Duration.ofNanos(kiriOver.nanosToNextDay())).isEqualTo(Duration.ofHours(1));

        time.pass(Duration.ofHours(1));
        assertThat(countIn(days, "kiri-app", 2, kiritimati)).as("Kiritimati's new day at 10:00 UTC").isEqualTo(2);
        assertThat(days.count("utc-app", 2, null).allowed()).as("UTC's day goes on").isFalse();
        time.pass(Duration.ofHours(14));
        assertThat(countIn(days, "utc-app", 2, null)).as("UTC's new day at midnight").isEqualTo(2);
        assertThat(days.count("kiri-app", 2, kiritimati).allowed()).as("Kiritimati's day runs to 10:00 UTC").isFalse();
        time.pass(Duration.ofHours(10));
        assertThat(countIn(days, "kiri-app", 2, kiritimati)).isEqualTo(2);
    }

    @Test
    void aZoneChangeMidDayKeepsTodaysCountAndOnlyLengthensTheDay() {
        ZoneId kiritimati = ZoneId.of("Pacific/Kiritimati");
        FakeTime time = at("2025-06-01T09:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countIn(days, "guestbook", 3, null)).isEqualTo(3);

        // The owner moves the app to Kiritimati at 09:00 UTC (23:00 there): its 10:00 UTC start of day
        // is before the UTC day's end, so the UTC day runs on to Kiritimati's next start, 10:00 UTC on June 2.
        Outcome moved = days.count("guestbook", 3, kiritimati);
        assertThat(moved.allowed()).as("today's count stands").isFalse();
        assertThat(moved.nextDay()).isEqualTo(ZonedDateTime.parse("2025-06-03T00:00+14:00[Pacific/Kiritimati]"));
        assertThat(Duration.ofNanos(moved.nanosToNextDay())).isEqualTo(Duration.ofHours(25));
        time.pass(Duration.ofHours(1));
        assertThat(days.count("guestbook", 3, kiritimati).allowed()).as("no reset at Kiritimati's 10:00 UTC today").isFalse();
        time.pass(Duration.ofHours(14));
        assertThat(days.count("guestbook", 3, kiritimati).allowed()).as("nor at the UTC day's end").isFalse();
        time.pass(Duration.ofHours(10).minusNanos(1));
        assertThat(days.count("guestbook", 3, kiritimati).allowed()).isFalse();
        time.pass(Duration.ofNanos(1));
        assertThat(countIn(days, "guestbook", 3, kiritimati)).as("then Kiritimati's days").isEqualTo(3);
        time.pass(Duration.ofDays(1));
        assertThat(countIn(days, "guestbook", 3, kiritimati)).isEqualTo(3);

        // Back to UTC at 10:00 UTC (Kiritimati's day began now): it runs to the first UTC midnight at or after its end.
        assertThat(days.count("guestbook", 3, null).allowed()).isFalse();
        Outcome back = days.count("guestbook", 3, null);
        assertThat(back.nextDay()).isEqualTo(ZonedDateTime.parse("2025-06-05T00:00Z[UTC]"));
        assertThat(Duration.ofNanos(back.nanosToNextDay())).isEqualTo(Duration.ofHours(38));
    }

    @Test
    void aZoneSeenAfterTheOldDayIsOverStartsWithTheOldZonesNextDayStretchedToTheNewZone() {
        ZoneId kiritimati = ZoneId.of("Pacific/Kiritimati");
        FakeTime time = at("2025-06-01T23:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countIn(days, "guestbook", 1, null)).isEqualTo(1);
        // 00:30 UTC on June 2 (within the hour an idle counter is kept): the UTC day is over; Kiritimati's
        // June 2 began at 10:00 UTC on June 1 and ends at 10:00 UTC on June 2
        time.pass(Duration.ofMinutes(90));
        Outcome first = days.count("guestbook", 1, kiritimati);
        assertThat(first.allowed()).as("UTC's new day, as without the change").isTrue();
        Outcome over = days.count("guestbook", 1, kiritimati);
        assertThat(over.nextDay()).as("no fresh day at 10:00 UTC today").isEqualTo(ZonedDateTime.parse("2025-06-04T00:00+14:00[Pacific/Kiritimati]"));
        assertThat(Duration.ofNanos(over.nanosToNextDay())).isEqualTo(Duration.ofHours(33).plusMinutes(30));
    }

    @Test
    void aTwentyFiveHourDayInTheAppsZoneIsOneDay() {
        FakeTime time = at("2025-10-26T00:30", BERLIN); // Berlin falls back at 03:00 that day: 25 hours
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        assertThat(countIn(days, "guestbook", 2, BERLIN)).isEqualTo(2);
        Outcome over = days.count("guestbook", 2, BERLIN);
        assertThat(Duration.ofNanos(over.nanosToNextDay())).isEqualTo(Duration.ofHours(24).plusMinutes(30));
        assertThat(over.nextDay()).isEqualTo(ZonedDateTime.parse("2025-10-27T00:00+01:00[Europe/Berlin]"));
        time.pass(Duration.ofHours(24).plusMinutes(30).minusNanos(1));
        assertThat(days.count("guestbook", 2, BERLIN).allowed()).as("UTC's midnight is no reset for a Berlin app").isFalse();
        time.pass(Duration.ofNanos(1));
        assertThat(countIn(days, "guestbook", 2, BERLIN)).isEqualTo(2);
    }

    @Test
    void shortenedDaysAreShiftedByTheZonesOffsetScaledToTheirLength() {
        FakeTime time = new FakeTime(Instant.parse("2025-06-01T09:00:05Z"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), Duration.ofSeconds(24), 100);
        ZoneId kiritimati = ZoneId.of("Pacific/Kiritimati"); // +14 h of 24: 14 s of a 24 s "day"
        days.count("kiri-app", 1, kiritimati);
        days.count("utc-app", 1, null);
        Outcome kiri = days.count("kiri-app", 1, kiritimati);
        Outcome utc = days.count("utc-app", 1, null);
        // UTC "days" of 24 s start at 09:00:00 and 09:00:24; Kiritimati's 14 s earlier: 08:59:46 and 09:00:10.
        assertThat(utc.nextDay().toInstant()).isEqualTo(Instant.parse("2025-06-01T09:00:24Z"));
        assertThat(kiri.nextDay().toInstant()).isEqualTo(Instant.parse("2025-06-01T09:00:10Z"));
        assertThat(kiri.nextDay().getZone()).isEqualTo(kiritimati);
    }

    /** Issue 15: a count takes no monitor within its day, so many request threads at once must still stop at the limit. */
    @Test
    void requestThreadsCountingAtOnceAreLetThroughExactlyTheDaysLimit() throws Exception {
        FakeTime time = at("2025-06-01T09:00", ZoneId.of("UTC"));
        DailyLimits days = new DailyLimits(time, time, ZoneId.of("UTC"), 100);
        long perDay = 7_777;
        int threads = 4;
        int each = 5_000;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<long[]>> counted = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                counted.add(pool.submit(() -> {
                    start.await();
                    long allowed = 0;
                    long firstRefusals = 0;
                    for (int i = 0; i < each; i++) {
                        Outcome o = days.count("busy", perDay);
                        allowed += o.allowed() ? 1 : 0;
                        firstRefusals += o.firstRefusal() ? 1 : 0;
                    }
                    return new long[] {allowed, firstRefusals};
                }));
            }
            start.countDown();
            long allowed = 0;
            long firstRefusals = 0;
            for (java.util.concurrent.Future<long[]> f : counted) {
                long[] r = f.get(30, java.util.concurrent.TimeUnit.SECONDS);
                allowed += r[0];
                firstRefusals += r[1];
            }
            assertThat(allowed).as("let through of %d requests", threads * each).isEqualTo(perDay);
            assertThat(firstRefusals).as("the first refusal is said once").isEqualTo(1);
            assertThat(days.count("busy", perDay).remaining()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    private static int countIn(DailyLimits days, String app, long perDay, ZoneId zone) {
        int counted = 0;
        while (days.count(app, perDay, zone).allowed()) {
            counted++;
        }
        return counted;
    }
}
