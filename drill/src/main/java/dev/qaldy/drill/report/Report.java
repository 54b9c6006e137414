package dev.qaldy.drill.report;

import dev.qaldy.drill.rows.Check;
import dev.qaldy.drill.rows.SeedRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The drill's report, {@code report.md} and {@code report.html} in the run's folder: the seed's
 * table row by row (what the seed says, what was seen, pass or fail), then every check of every
 * pass, and the screenshots of the console and the status page. A row with no check is reported as not checked, and fails.
 */
public final class Report {

    /** How the gate let a person in, as {@link dev.qaldy.drill.cell.Seen#summary()} writes it ("access outage-copy"). */
    private static final java.util.regex.Pattern ACCESS = java.util.regex.Pattern.compile("access (asked|fresh-copy|outage-copy|public|refused)\\b");

    private final String cell;
    private final Instant started;
    private final List<PassResult> passes;

    /**
     * @param cell    the cell's public origin, e.g. "http://localhost:8080"
     * @param started when the drill started
     * @param passes  the passes in the order they ran
     */
    public Report(String cell, Instant started, List<PassResult> passes) {
        this.cell = cell;
        this.started = started.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        this.passes = passes;
    }

    /** Whether every seed row was checked and every check passed. */
    public boolean passed() {
        return passes.stream().allMatch(PassResult::passed) && List.of(SeedRow.values()).stream().allMatch(r -> !checksOf(r).isEmpty());
    }

    /** The rows that failed or were not checked, by the seed's names. */
    public List<String> failedRows() {
        List<String> failed = new ArrayList<>();
        for (SeedRow row : SeedRow.values()) {
            List<Check> checks = checksOf(row);
            if (checks.isEmpty() || !checks.stream().allMatch(Check::passed)) {
                failed.add(row.title);
            }
        }
        return failed;
    }

    /** Writes report.md and report.html into {@code folder}; returns the Markdown file. */
    public Path write(Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("report.md"), markdown());
        Files.writeString(folder.resolve("report.html"), html());
        return folder.resolve("report.md");
    }

    List<Check> checksOf(SeedRow row) {
        return passes.stream().flatMap(p -> p.checks().stream()).filter(c -> c.row() == row).toList();
    }

    private String rowResult(SeedRow row) {
        List<Check> checks = checksOf(row);
        if (checks.isEmpty()) {
            return "NOT CHECKED";
        }
        return checks.stream().allMatch(Check::passed) ? "PASS" : "FAIL";
    }

    private String rowSeen(SeedRow row) {
        List<Check> checks = checksOf(row);
        long passed = checks.stream().filter(Check::passed).count();
        StringBuilder seen = new StringBuilder(passed + " of " + checks.size() + " checks as expected");
        List<String> access = checks.stream().flatMap(c -> ACCESS.matcher(c.seen()).results().map(m -> m.group(1))).distinct()
                .toList();
        if (!access.isEmpty()) {
            seen.append(" (the gate let in by: ").append(String.join(", ", access)).append(')');
        }
        checks.stream().filter(c -> !c.passed()).forEach(c -> seen.append("; FAILED: ").append(c.who()).append(", ")
                .append(c.when()).append(": ").append(c.seen()));
        return seen.toString();
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Qaldy drill, ").append(started).append("\n\n");
        md.append("Cell: ").append(cell).append(". Result: **").append(passed() ? "PASS" : "FAIL").append("**");
        if (!passed()) {
            md.append(" (rows: ").append(String.join(", ", failedRows())).append(')');
        }
        md.append(".\n\n## The seed's table\n\n| Row | The seed says | How | Seen | Result |\n|---|---|---|---|---|\n");
        for (SeedRow row : SeedRow.values()) {
            md.append("| ").append(cells(row.title, row.keepsWorking, row.how, rowSeen(row), rowResult(row))).append(" |\n");
        }
        for (PassResult pass : passes) {
            md.append("\n## ").append(pass.title()).append("\n\n").append(span(pass)).append(" (")
                    .append(Duration.between(pass.stopped(), pass.returned()).toSeconds())
                    .append(" s down).\n\n| Row | When | Who | Expected | Seen | ms | Result |\n|---|---|---|---|---|---|---|\n");
            for (Check c : pass.checks()) {
                String seen = c.evidence() == null ? c.seen() : c.seen() + " ![" + c.evidence() + "](" + c.evidence() + ")";
                md.append("| ").append(cells(c.row().title, c.when(), c.who(), c.expected(), seen,
                        c.ms() < 0 ? "" : Long.toString(c.ms()), c.passed() ? "PASS" : "FAIL")).append(" |\n");
            }
        }
        return md.toString();
    }

    private static String cells(String... values) {
        List<String> escaped = new ArrayList<>();
        for (String v : values) {
            escaped.add(v.replace("|", "\\|").replace("\n", " "));
        }
        return String.join(" | ", escaped);
    }

    String html() {
        StringBuilder h = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>Qaldy drill, " + esc(started.toString()) + "</title><style>"
                + "body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:80rem;padding:0 1rem;color:#1c1c1c}"
                + "table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #ccc;padding:.4rem;text-align:left;"
                + "vertical-align:top}th{background:#f2f2f2}.PASS{color:#0a6b2d;font-weight:600}.FAIL,.NOT{color:#b00020;"
                + "font-weight:600}img{max-width:32rem;border:1px solid #ccc;display:block;margin-top:.4rem}</style></head><body>\n");
        h.append("<h1>Qaldy drill, ").append(esc(started.toString())).append("</h1>\n<p>Cell: ").append(esc(cell))
                .append(". Result: <strong class=\"").append(passed() ? "PASS" : "FAIL").append("\">")
                .append(passed() ? "PASS" : "FAIL").append("</strong>");
        if (!passed()) {
            h.append(" (rows: ").append(esc(String.join(", ", failedRows()))).append(')');
        }
        h.append(".</p>\n<h2>The seed's table</h2>\n<table><tr><th>Row</th><th>The seed says</th><th>How</th><th>Seen</th>"
                + "<th>Result</th></tr>\n");
        for (SeedRow row : SeedRow.values()) {
            String result = rowResult(row);
            h.append("<tr><td>").append(esc(row.title)).append("</td><td>").append(esc(row.keepsWorking)).append("</td><td>")
                    .append(esc(row.how)).append("</td><td>").append(esc(rowSeen(row))).append("</td><td class=\"")
                    .append(result.split(" ")[0]).append("\">").append(result).append("</td></tr>\n");
        }
        h.append("</table>\n");
        for (PassResult pass : passes) {
            h.append("<h2>").append(esc(pass.title())).append("</h2>\n<p>").append(esc(span(pass))).append(".</p>\n<table><tr><th>Row</th>"
                            + "<th>When</th><th>Who</th><th>Expected</th><th>Seen</th><th>ms</th><th>Result</th></tr>\n");
            for (Check c : pass.checks()) {
                String result = c.passed() ? "PASS" : "FAIL";
                h.append("<tr><td>").append(esc(c.row().title)).append("</td><td>").append(esc(c.when())).append("</td><td>")
                        .append(esc(c.who())).append("</td><td>").append(esc(c.expected())).append("</td><td>").append(esc(c.seen()));
                if (c.evidence() != null) {
                    h.append("<img src=\"").append(esc(c.evidence())).append("\" alt=\"").append(esc(c.who()))
                            .append(": what the page showed\">");
                }
                h.append("</td><td>").append(c.ms() < 0 ? "" : c.ms()).append("</td><td class=\"").append(result).append("\">")
                        .append(result).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    static String seconds(Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** "Stopped at T, started again at T" ("Cut at T, healed at T" for the cut pass). */
    private static String span(PassResult pass) {
        boolean cut = pass.name().equals("cut");
        return (cut ? "Cut at " : "Stopped at ") + seconds(pass.stopped()) + (cut ? ", healed at " : ", started again at ")
                + seconds(pass.returned());
    }
}
