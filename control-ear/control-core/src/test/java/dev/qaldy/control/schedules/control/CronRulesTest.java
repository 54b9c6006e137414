package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import org.junit.jupiter.api.Test;

/** Parsed rules are remembered per (expression, zone), bounded, and a bad stored text is never remembered. */
class CronRulesTest {

    @Test
    void oneRuleIsParsedOnceAndSharedByEveryScheduleThatNamesIt() {
        CronRules rules = new CronRules();
        assertThat(rules.of("*/5 * * * *", "UTC")).isSameAs(rules.of("*/5 * * * *", "UTC"));
        assertThat(rules.of("*/5 * * * *", "Europe/Berlin")).isNotSameAs(rules.of("*/5 * * * *", "UTC"));
        assertThat(rules.size()).isEqualTo(2);
    }

    @Test
    void aStoredSixFieldRuleIsReadWithItsSeconds() {
        assertThat(new CronRules().of("*/10 * * * * *", "UTC").hasSeconds()).isTrue();
    }

    @Test
    void theMemoryIsBounded() {
        CronRules rules = new CronRules();
        for (int i = 0; i < CronRules.MAX_ENTRIES + 500; i++) { // all distinct: minute × hour × day of month
            rules.of((i % 60) + " " + (i / 60 % 24) + " " + (1 + i / 1440 % 28) + " * *", "UTC");
        }
        assertThat(rules.size()).isLessThanOrEqualTo(CronRules.MAX_ENTRIES);
    }

    @Test
    void aBadStoredRuleFailsEveryTimeAndIsNotRemembered() {
        CronRules rules = new CronRules();
        assertThatThrownBy(() -> rules.of("not a rule", "UTC")).isInstanceOf(InvalidInput.class);
        assertThat(rules.size()).isZero();
    }
}
