package dev.qaldy.drill.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.drill.rows.Check;
import dev.qaldy.drill.rows.SeedRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    static final Instant T = Instant.parse("2026-11-30T03:00:00Z");

    static List<Check> everyRowPassing() {
        List<Check> checks = new ArrayList<>();
        for (SeedRow row : SeedRow.values()) {
            checks.add(new Check(row, Check.DURING, "someone", "as the seed says", "200 in 5 ms", 5, true, null));
        }
        return checks;
    }

    @Test
    void every_row_checked_and_passed_is_a_pass() {
        Report report = new Report("http://localhost:8080", T, List.of(new PassResult("kill", "The API killed", T, T.plusSeconds(60),
                everyRowPassing())));
        assertThat(report.passed()).isTrue();
        assertThat(report.failedRows()).isEmpty();
        assertThat(report.markdown()).contains("Result: **PASS**").contains("| The console | Partly |");
    }

    @Test
    void a_failed_check_fails_its_row_by_the_seeds_name_in_both_files(@TempDir Path dir) throws Exception {
        List<Check> checks = everyRowPassing();
        checks.add(new Check(SeedRow.WEBHOOKS, Check.DURING, "a webhook sender", "503", "200 <b>oops</b> | pipe", 3, false, null));
        Report report = new Report("http://localhost:8080", T, List.of(new PassResult("kill", "The API killed", T, T, checks)));
        assertThat(report.passed()).isFalse();
        assertThat(report.failedRows()).containsExactly("Webhooks");
        report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("Result: **FAIL** (rows: Webhooks)").contains("200 <b>oops</b> \\| pipe");
        String html = Files.readString(dir.resolve("report.html"));
        assertThat(html).contains("<strong class=\"FAIL\">FAIL</strong>").contains("&lt;b&gt;oops&lt;/b&gt;").doesNotContain("<b>oops");
    }

    @Test
    void a_row_nobody_checked_is_not_a_pass() {
        List<Check> checks = everyRowPassing();
        checks.removeIf(c -> c.row() == SeedRow.SHIELD);
        Report report = new Report("x", T, List.of(new PassResult("db", "The database stopped", T, T, checks)));
        assertThat(report.passed()).isFalse();
        assertThat(report.failedRows()).containsExactly("The shield");
        assertThat(report.markdown()).contains("| NOT CHECKED |");
    }

    @Test
    void the_seed_table_says_how_the_gate_let_people_in() {
        List<Check> checks = everyRowPassing();
        checks.add(new Check(SeedRow.APPS_ALREADY_OPENED, Check.DURING, "a viewer", "200", "200 “Guestbook” in 9 ms, access fresh-copy",
                9, true, null));
        checks.add(new Check(SeedRow.APPS_ALREADY_OPENED, Check.DURING, "a viewer, 36 s after the gate last asked", "200",
                "200 “Guestbook” in 7 ms, access outage-copy", 7, true, null));
        String md = new Report("x", T, List.of(new PassResult("kill", "The API killed", T, T, checks))).markdown();
        assertThat(md).containsPattern("\\| Apps people already opened \\|.*3 of 3 checks as expected"
                + " \\(the gate let in by: fresh-copy, outage-copy\\) \\| PASS \\|");
    }
}
