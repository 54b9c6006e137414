package dev.qaldy.control.shield.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShieldRulesTest {

    @Test
    void numbers_are_absent_or_one_to_a_billion_and_lists_keep_their_order() {
        ShieldRules rules = new ShieldRules(1L, null, 1_000_000_000L, List.of("(?i)curl", "python"), List.of("10.0.0.0/8", "2001:db8::/32"));
        assertThat(rules.none()).isFalse();
        assertThat(rules.summary()).isEqualTo("perClientPerMinute=1; perAppPerMinute=plan; perAppPerDay=1000000000; "
                + "2 user-agent patterns; 2 denied ranges; dayZone=default");
        assertThat(new ShieldRules(null, null, null, null, null)).isEqualTo(ShieldRules.NONE);
        assertThat(ShieldRules.NONE.none()).isTrue();
        for (long bad : new long[] {0, -1, 1_000_000_001L}) {
            assertThatThrownBy(() -> new ShieldRules(null, null, bad, List.of(), List.of())).isInstanceOf(InvalidInput.class)
                    .hasMessageContaining("perAppPerDay");
        }
    }

    @Test
    void patterns_must_compile_fit_on_one_line_and_be_few() {
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of("(unclosed"), List.of()))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("\"(unclosed\" is not a pattern Qaldy can read").hasMessageEndingWith("or remove it.");
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of("a\nb"), List.of())).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of(" "), List.of())).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of("x".repeat(201)), List.of())).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> new ShieldRules(null, null, null, Collections.nCopies(21, "bot"), List.of()))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("at most 20");
    }

    @ParameterizedTest
    @ValueSource(strings = {"203.0.113.7", "203.0.113.0/24", "0.0.0.0/0", "::1", "2001:db8::/32", "::ffff:10.0.0.0/104"})
    void ip_literals_with_a_prefix_in_range_are_ranges(String range) {
        assertThat(new ShieldRules(null, null, null, List.of(), List.of(range)).deniedCidrs()).containsExactly(range);
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com", "10.0.0.256", "10.0.0.0/33", "2001:db8::/129", "10.0.0/8", "", "10.0.0.0/x", "localhost"})
    void anything_else_is_refused_without_a_lookup(String range) {
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of(), List.of(range))).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("not an IP range");
    }

    @Test
    void stored_lines_come_back_without_blanks() {
        assertThat(ShieldRules.lines("a\n\nb\n")).containsExactly("a", "b");
        assertThat(ShieldRules.lines(null)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Europe/Berlin", "Pacific/Kiritimati", "UTC", "America/Argentina/Buenos_Aires", "Etc/GMT-14"})
    void a_day_zone_is_an_iana_region_name(String zone) {
        ShieldRules rules = new ShieldRules(null, null, null, List.of(), List.of(), zone);
        assertThat(rules.dayZone()).isEqualTo(zone);
        assertThat(rules.none()).as("a zone alone is a setting").isFalse();
        assertThat(rules.summary()).endsWith("dayZone=" + zone);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Mars/Olympus_Mons", "+01:00", "UTC+1", "GMT+01:00", "Z", "europe/berlin", "Europe/Berlin ", "CET\n"})
    void anything_else_is_not_a_day_zone(String zone) {
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of(), List.of(), zone)).isInstanceOf(InvalidInput.class)
                .hasMessageContaining("\"dayZone\" is not a time zone name").hasMessageContaining("Europe/Berlin");
    }

    @Test
    void a_day_zone_is_bounded_in_length() {
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of(), List.of(), "Europe/" + "x".repeat(100)))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("1..64 characters").hasMessageNotContaining("xxxx");
        assertThatThrownBy(() -> new ShieldRules(null, null, null, List.of(), List.of(), ""))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("dayZone");
        assertThat(new ShieldRules(null, null, null, List.of(), List.of(), null)).isEqualTo(ShieldRules.NONE);
    }
}
