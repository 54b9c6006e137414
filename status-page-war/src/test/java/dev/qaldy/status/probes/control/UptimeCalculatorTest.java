package dev.qaldy.status.probes.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.probes.control.UptimeCalculator.ComponentUptime;
import dev.qaldy.status.probes.control.UptimeCalculator.DayUptime;
import dev.qaldy.status.probes.entity.DayCount;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Uptime from day counts: unknown probes and days without probes count for nothing. */
class UptimeCalculatorTest {

    private static final LocalDate TODAY = LocalDate.of(2025, 3, 31);

    private static DayCount day(String id, LocalDate date, int up, int down, int unknown) {
        return new DayCount(id, date.toEpochDay(), up, down, unknown);
    }

    @ParameterizedTest(name = "{0} up, {1} down -> {2}")
    @CsvSource(nullValues = "null", value = {
            "0, 0, null", "10, 0, 100.0", "0, 10, 0.0", "1, 1, 50.0", "2, 1, 66.66", "1, 2, 33.33",
            "17279, 1, 99.99", "172799, 1, 99.99", "1, 172799, 0.0"})
    void percentIsRoundedDownSoAnyDownProbeShowsBelowAHundred(long up, long down, Double percent) {
        assertThat(UptimeCalculator.percent(up, down)).isEqualTo(percent);
    }

    @Test
    void ninetyDaysOldestFirstWithNullForDaysWithoutData() {
        List<DayCount> counts = List.of(
                day("local.gate", TODAY, 90, 10, 0),
                day("local.gate", TODAY.minusDays(2), 0, 0, 50),      // only unknown probes: no data
                day("local.gate", TODAY.minusDays(89), 100, 0, 0),     // the oldest day shown
                day("local.gate", TODAY.minusDays(90), 0, 100, 0),     // one day too old: not shown, not counted
                day("local.control", TODAY, 0, 100, 0));               // another component

        ComponentUptime uptime = UptimeCalculator.uptime("local.gate", counts, TODAY, 90);

        assertThat(uptime.days()).hasSize(90);
        assertThat(uptime.days().get(0)).isEqualTo(new DayUptime(TODAY.minusDays(89), 100.0, 100, 0, 0));
        assertThat(uptime.days().get(89)).isEqualTo(new DayUptime(TODAY, 90.0, 90, 10, 0));
        assertThat(uptime.days().get(87)).isEqualTo(new DayUptime(TODAY.minusDays(2), null, 0, 0, 50));
        assertThat(uptime.days().get(1).percent()).isNull();
        assertThat(uptime.days()).filteredOn(d -> d.percent() != null).hasSize(2);
        assertThat(uptime.percent()).isEqualTo(95.0);   // 190 up of 200
    }

    @Test
    void noDataAtAllIsNullNotAHundred() {
        ComponentUptime uptime = UptimeCalculator.uptime("local.gate", List.of(), TODAY, 90);

        assertThat(uptime.percent()).isNull();
        assertThat(uptime.days()).allSatisfy(d -> assertThat(d.percent()).isNull());
    }

    @Test
    void countsOfOneDayAreAddedUp() {
        List<DayCount> counts = List.of(day("a.b", TODAY, 3, 1, 0), day("a.b", TODAY, 1, 3, 2));

        assertThat(UptimeCalculator.uptime("a.b", counts, TODAY, 1).days())
                .containsExactly(new DayUptime(TODAY, 50.0, 4, 4, 2));
    }

    @Test
    void onlyTodayWithDataIsAHundredPercentOverOneDayNotOverNinety() {
        ComponentUptime uptime = UptimeCalculator.uptime("local.gate", List.of(
                day("local.gate", TODAY, 40, 0, 3),
                day("local.gate", TODAY.minusDays(1), 0, 0, 9)), TODAY, 90);   // only unknown probes: no data

        assertThat(uptime.percent()).isEqualTo(100.0);
        assertThat(uptime.daysWithData()).isEqualTo(1);
        assertThat(uptime.days()).hasSize(90);
        assertThat(UptimeCalculator.uptime("local.gate", List.of(), TODAY, 90).daysWithData()).isZero();
    }
}
