package dev.qaldy.control.schedules.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import java.time.Instant;
import java.time.ZonedDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Parsing and checking of cron rules, and their ticks around DST changes. */
class CronRuleTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "61 * * * *   | UTC           | not a standard 5-field cron",
        "* * * *      | UTC           | not a standard 5-field cron",
        "@hourly      | UTC           | not a standard 5-field cron",
        "0 0 30 2 *   | UTC           | never fires",
        "0 * * * *    | Mars/Olympus  | is not a time zone",
        "''           | UTC           | a cron expression is required"})
    void bad_rules_are_refused_with_a_clear_message(String cron, String zone, String message) {
        assertThatThrownBy(() -> CronRule.of(cron, zone)).isInstanceOf(InvalidInput.class).hasMessageContaining(message);
    }

    @Test
    void a_seconds_field_is_refused_unless_the_cell_allows_it() {
        assertThatThrownBy(() -> CronRule.of("*/10 * * * * *", "UTC")).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("has 6 fields").hasMessageContaining("qaldy.scheduler.allow-seconds");
        assertThatThrownBy(() -> CronRule.of("*/10 * * * * *", "UTC", false)).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> CronRule.of("61 * * * * *", "UTC", true)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("not a 6-field cron expression");
        assertThat(CronRule.of("0 * * * *", "UTC", true).hasSeconds()).as("5 fields stay minutes").isFalse();
    }

    @Test
    void with_seconds_allowed_a_6_field_rule_ticks_in_seconds() {
        CronRule rule = CronRule.of("*/10 * * * * *", "UTC", true);
        assertThat(rule.hasSeconds()).isTrue();
        assertThat(rule.ticksBetween(Instant.parse("2026-11-30T10:00:00Z"), Instant.parse("2026-11-30T10:00:30Z")))
                .containsExactly(Instant.parse("2026-11-30T10:00:10Z"), Instant.parse("2026-11-30T10:00:20Z"),
                        Instant.parse("2026-11-30T10:00:30Z"));
        CronRule daily = CronRule.of("15 30 2 * * *", "Europe/Berlin", true);
        assertThat(daily.ticksBetween(Instant.parse("2026-03-28T12:00:00Z"), Instant.parse("2026-03-29T12:00:00Z")))
                .as("spring forward: 02:30:15 does not exist and moves forward by the gap, once")
                .containsExactly(ZonedDateTime.parse("2026-03-29T03:30:15+02:00").toInstant());
    }

    @Test
    void the_zone_defaults_to_utc_and_spaces_are_normalised() {
        CronRule rule = CronRule.of("  0   *  * * * ", null);
        assertThat(rule.zone().getId()).isEqualTo("UTC");
        assertThat(rule.expression()).isEqualTo("0 * * * *");
    }

    @Test
    void ticks_between_are_exclusive_of_the_start_and_inclusive_of_the_end() {
        CronRule rule = CronRule.of("0 * * * *", "UTC");
        assertThat(rule.ticksBetween(Instant.parse("2026-11-30T10:00:00Z"), Instant.parse("2026-11-30T12:00:00Z")))
                .containsExactly(Instant.parse("2026-11-30T11:00:00Z"), Instant.parse("2026-11-30T12:00:00Z"));
    }

    @Test
    void spring_forward_a_0230_in_the_gap_moves_to_0330_cest() {
        CronRule rule = CronRule.of("30 2 * * *", "Europe/Berlin");
        assertThat(rule.ticksBetween(ZonedDateTime.parse("2026-03-29T00:00+01:00").toInstant(),
                ZonedDateTime.parse("2026-03-29T23:00+02:00").toInstant()))
                .containsExactly(ZonedDateTime.parse("2026-03-29T03:30+02:00").toInstant());
    }

    @Test
    void fall_back_the_ticks_are_the_same_wherever_the_range_starts() {
        CronRule rule = CronRule.of("30 2 * * *", "Europe/Berlin");
        Instant end = ZonedDateTime.parse("2026-10-25T12:00+01:00").toInstant();
        // cron-utils alone, started between the two 02:30s, would give the second one too.
        assertThat(rule.ticksBetween(ZonedDateTime.parse("2026-10-25T02:45+02:00").toInstant(), end)).isEmpty();
        assertThat(rule.ticksBetween(ZonedDateTime.parse("2026-10-25T00:00+02:00").toInstant(), end))
                .containsExactly(ZonedDateTime.parse("2026-10-25T02:30+02:00").toInstant());
    }

    @Test
    void next_after_is_shown_to_owners() {
        assertThat(CronRule.of("30 2 * * *", "Europe/Berlin").nextAfter(Instant.parse("2026-11-30T12:00:00Z")))
                .contains(Instant.parse("2026-12-01T01:30:00Z"));
    }
}
