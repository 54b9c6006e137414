package dev.qaldy.control.billing.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The billing entities keep their own rules: sequences only grow, sleeps and wakes are reported once, reports are bounded. */
class BillingRulesTest {

    static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");

    @Test
    void sequences_only_grow_and_a_new_month_starts_from_what_was_billed_in_it() {
        BillingAccount account = new BillingAccount(7, "2026-03", 0);
        account.changed(3, NOW);
        assertThatThrownBy(() -> account.changed(3, NOW)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> account.changed(2, NOW)).isInstanceOf(IllegalStateException.class);
        account.spend(1500);
        assertThat(account.roll("2026-03", 0)).as("same month: nothing").isFalse();
        assertThat(account.spentMillicents()).isEqualTo(1500);
        assertThat(account.roll("2026-04", 40)).isTrue();
        assertThat(account.period()).isEqualTo("2026-04");
        assertThat(account.spentMillicents()).isEqualTo(40);
        account.spend(Long.MAX_VALUE);
        assertThat(account.spentMillicents()).as("saturates").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void a_sleep_and_a_wake_are_each_reported_once() {
        BillingAccount account = new BillingAccount(7, "2026-03", 0);
        assertThat(account.sleeping(false)).isNull();
        assertThat(account.sleeping(true)).isTrue();
        assertThat(account.sleeping(true)).isNull();
        assertThat(account.sleeping(false)).isFalse();
        assertThat(account.capCents(500)).as("the default until set").isEqualTo(500);
        assertThat(account.capSet()).isFalse();
        account.cap(0);
        assertThat(account.capCents(500)).isZero();
        assertThat(account.capSet()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "upper case app, Guestbook, 1, 0",
        "negative requests, guestbook, -1, 0",
        "negative cpu, guestbook, 0, -1",
        "too many requests, guestbook, 1000000000001, 0",
        "not a DNS label, guest.book, 1, 0"})
    void a_bad_line_is_refused(String what, String app, long requests, long cpuMs) {
        assertThatThrownBy(() -> new UsageReport.Item(app, requests, cpuMs)).isInstanceOf(InvalidInput.class);
    }

    @Test
    void a_report_needs_an_id_a_reporter_and_at_most_a_thousand_lines_and_sums_per_app() {
        UUID id = UUID.randomUUID();
        List<UsageReport.Item> lines = List.of(new UsageReport.Item("guestbook", 2, 5), new UsageReport.Item("notes", 1, 0),
                new UsageReport.Item("guestbook", 3, 1));
        UsageReport report = new UsageReport(id, "gate", lines);
        assertThat(report.perApp()).containsOnlyKeys("guestbook", "notes");
        assertThat(report.perApp().get("guestbook")).containsExactly(5, 6);
        assertThatThrownBy(() -> new UsageReport(null, "gate", lines)).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> new UsageReport(id, "", lines)).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> new UsageReport(id, "gate with spaces", lines)).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> new UsageReport(id, "gate",
                java.util.Collections.nCopies(UsageReport.MAX_ITEMS + 1, lines.get(0)))).isInstanceOf(InvalidInput.class);
    }
}
