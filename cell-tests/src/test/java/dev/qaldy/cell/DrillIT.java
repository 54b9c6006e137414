package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 7, test 3: {@code bin/qaldy drill} on a real cell passes every row of the seed's table
 * (the API killed, then the database down), and fails, naming the row, when one behaviour is
 * broken on purpose through config: a gate restarted with an access memory of 1 s (and no
 * freshness window) cannot keep people who already opened an app, so "Apps people already opened"
 * must fail. Durations shortened through config: console poll 1 s, cap states every 2 s,
 * scheduler ticks every 2 s, and the drill's schedule every 15 s (cron with seconds, allowed on
 * this cell), so each pass lasts until one of those ticks has passed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrillIT {

    static final String GATE_OPTS = "-Dqaldy.console.poll-interval=PT1S";
    static final Map<String, String> DRILL = Map.of("QALDY_DRILL_OPTS",
            "-Dqaldy.drill.return-wait=PT90S -Dqaldy.drill.catch-up-wait=PT90S -Dqaldy.drill.settle=PT6S"
                    + " -Dqaldy.drill.cap-wait=PT60S -Dqaldy.drill.cron=*/15_*_*_*_*_* -Dqaldy.drill.tick-margin=PT6S");
    /** A cell the drill can run on in minutes: no sample app, cap states every 2 s, scheduler ticks every 2 s, cron with seconds. */
    static final Map<String, String> CELL = Map.of(
            "QALDY_NO_SEED", "1",
            "QALDY_OPTS", "-Dqaldy.cap.refresh=PT2S -Dqaldy.cap.report-interval=PT1S",
            "QALDY_OPTS_GATE", GATE_OPTS,
            "QALDY_OPTS_CONTROL", "-Dqaldy.scheduler.tick-interval=PT2S -Dqaldy.scheduler.allow-seconds=true");
    static Cell cell;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("drill", CELL);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void on_a_healthy_cell_the_drill_passes_every_row_and_writes_its_report() throws Exception {
        Path out = cell.var().resolve("drill/healthy");
        Cell.Run run = cell.run(DRILL, Duration.ofMinutes(15), "drill", "--out", out.toString());
        assertThat(run.exit()).as(run.output() + report(out)).isZero();
        assertThat(run.output()).contains("every row passed");

        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **PASS**");
        for (String row : new String[] {"Apps people already opened", "Schedules", "Webhooks",
                "Signing in, and opening an app for the first time", "The console", "Builds", "Sites", "The spending cap", "The shield"}) {
            assertThat(md).containsPattern("\\| " + java.util.regex.Pattern.quote(row) + " \\|.*\\| PASS \\|");
        }
        assertThat(md).contains("## The API killed").contains("## The database stopped");
        assertThat(md).as("the gate says how it let the person in: its fresh copy first, then, past its freshness window,"
                + " its outage copy (the access memory itself)").contains("access fresh-copy").contains("access outage-copy")
                .containsPattern("\\| Apps people already opened \\|.*outage-copy.*\\| PASS \\|");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).startsWith("<!doctype html>").contains("<td class=\"PASS\">PASS</td>").doesNotContain("class=\"FAIL\"");
        assertThat(out.resolve("console-kill.png")).isNotEmptyFile();
        assertThat(out.resolve("console-db.png")).isNotEmptyFile();
        assertThat(Files.readAllBytes(out.resolve("console-kill.png"))).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        assertRunning();
    }

    @Test
    @Order(2)
    void with_the_access_memory_broken_through_config_the_drill_fails_and_names_the_row() throws Exception {
        Map<String, String> broken = Map.of("QALDY_OPTS_GATE",
                GATE_OPTS + " -Dqaldy.gate.access-freshness=PT0S -Dqaldy.gate.access-memory=PT1S");
        cell.qaldy("stop", "gate");
        cell.qaldy(broken, "start", "gate");

        Path out = cell.var().resolve("drill/broken");
        Map<String, String> env = new java.util.HashMap<>(DRILL);
        env.putAll(broken);
        Cell.Run run = cell.run(env, Duration.ofMinutes(10), "drill", "--pass", "kill", "--out", out.toString());
        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        // The payer's app is refused at the access step too (503 "Temporarily unavailable" instead
        // of "asleep"), so "The spending cap" may fail with it; the row broken on purpose comes first.
        assertThat(run.output()).contains("FAILED rows: Apps people already opened");
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **FAIL** (rows: Apps people already opened");
        assertThat(md).containsPattern("\\| Apps people already opened \\|.*\\| FAIL \\|");
        assertThat(md).containsPattern("\\| Webhooks \\|.*\\| PASS \\|");
        assertRunning();
    }

    /**
     * The drill leaves every component running (ready again soon after its last restart). On
     * failure the message carries each not-ready component's {@code /health/ready} answer.
     */
    static void assertRunning() {
        assertRunning(cell);
    }

    /** As {@link #assertRunning()}, for another test's cell. */
    static void assertRunning(Cell cell) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            String status = cell.qaldy("status");
            assertThat(status).as("the drill leaves the cell running" + readiness(cell, status)).doesNotContain("stopped")
                    .doesNotContain("not ready");
        });
    }

    /** The readiness answers of the components {@code bin/qaldy status} calls not ready. */
    static String readiness(Cell cell, String status) {
        StringBuilder said = new StringBuilder();
        for (String line : status.split("\n")) {
            if (line.contains("not ready")) {
                String component = line.trim().split("\\s+")[0];
                try {
                    var answer = cell.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                            "http://127.0.0.1:" + cell.port(component) + "/health/ready")).timeout(Duration.ofSeconds(10)).build());
                    said.append("\n").append(component).append(" /health/ready: ").append(answer.statusCode()).append(' ').append(answer.body());
                } catch (Exception e) {
                    said.append("\n").append(component).append(" /health/ready: ").append(e);
                }
            }
        }
        return said.toString();
    }

    static String report(Path out) {
        try {
            return "\n" + Files.readString(out.resolve("report.md"));
        } catch (Exception e) {
            return "\n(no report: " + e.getMessage() + ")";
        }
    }
}
