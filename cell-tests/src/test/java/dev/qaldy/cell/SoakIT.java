package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 14: {@code bin/qaldy soak} on a cell of its own with two gates: five minutes of faults
 * from a fixed seed (the control plane killed with a gate restarted during the outage, hung twice,
 * the database restarted meanwhile, stopped gracefully with the runtime host hung) while the
 * population works, and no invariant is violated; then, on a gate whose access memory is broken
 * through config (1 s, no freshness window), a one-minute soak whose first fault hangs the control
 * plane must fail, naming "What people already opened keeps working". Durations shortened through
 * config as DrillIT does (cap states every 2 s, scheduler ticks every 2 s with cron seconds
 * allowed, a catch-up window of a minute, the owners' shield settings fetched every 2 s, so the app
 * with a daily limit of its own reaches it before the first gate restart), and the soak told the same.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SoakIT {

    /** Round 1: control killed, the gate restarted during it; 2: control hung, the database restarted; 3: control hung; 4: … */
    static final String SEED = "5";
    /** Round 1 (of a one-minute soak): the control plane hung (SIGSTOP) for 20 s. */
    static final String BROKEN_SEED = "7";
    static final String CONTROL_OPTS = "-Dqaldy.scheduler.tick-interval=PT2S -Dqaldy.scheduler.allow-seconds=true"
            + " -Dqaldy.scheduler.catchup-window=PT1M";
    static final Map<String, String> SOAK = Map.of("QALDY_SOAK_OPTS", "-Dqaldy.soak.cap-propagation=PT9S -Dqaldy.soak.tick-interval=PT2S"
            + " -Dqaldy.soak.catch-up-window=PT1M");
    static Cell cell;

    @BeforeAll
    static void startCell() throws Exception {
        // The cell starts beside others (its start judges nothing); the five-minute soak takes the machine alone.
        cell = Cell.up("soak", Map.of(
                "QALDY_NO_SEED", "1",
                "QALDY_OPTS", "-Dqaldy.cap.refresh=PT2S -Dqaldy.cap.report-interval=PT1S -Dqaldy.gate.shield.refresh=PT2S",
                "QALDY_OPTS_CONTROL", CONTROL_OPTS), true);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void five_minutes_of_faults_from_a_fixed_seed_break_no_invariant() throws Exception {
        // It judges what one person waits (recovery within 60 s, no wait on a hung API): never beside another cell.
        MachineShare.aloneFromNow();
        Path out = cell.var().resolve("soak/seeded");
        Cell.Run run = cell.run(SOAK, Duration.ofMinutes(20), "soak", "--minutes", "5", "--seed", SEED, "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isZero();
        assertThat(run.output()).contains("qaldy soak: no violation");

        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Seed " + SEED + ", 5 min of faults").contains("Result: **PASS**");
        for (String invariant : new String[] {"No access the API denied", "No 403 while the API fails",
                "What people already opened keeps working", "Over the cap is never served", "A deleted version never comes back",
                "Every accepted webhook runs exactly once", "Each schedule catches up at most once per outage",
                "The shield holds, across restarts", "An app that exists is never missing", "A hung API costs people on the copy no wait",
                "No 500 with the API and database up", "Everything works again within 60 s"}) {
            assertThat(md).containsPattern("\\| " + java.util.regex.Pattern.quote(invariant) + " \\|.*\\| [0-9]+ \\| 0 \\| PASS \\|");
        }
        for (String judgedEveryRound : new String[] {"No access the API denied", "No 403 while the API fails",
                "What people already opened keeps working", "An app that exists is never missing", "No 500 with the API and database up",
                "Everything works again within 60 s"}) {
            assertThat(md).as("judged something").containsPattern("\\| " + java.util.regex.Pattern.quote(judgedEveryRound)
                    + " \\|.*\\| [1-9][0-9]* \\| 0 \\| PASS \\|");
        }
        assertThat(md).as("the seed's first round: the control plane killed, a gate restarted during the outage")
                .containsPattern("\\| 1 \\| control \\| killed \\(SIGKILL\\), then started \\|")
                .containsPattern("\\| 1 \\| gate \\| restarted");
        assertThat(out.resolve("history.jsonl")).isNotEmptyFile();
        assertThat(Files.readString(out.resolve("report.html"))).startsWith("<!doctype html>").doesNotContain("class=\"FAIL\"");
        DrillIT.assertRunning(cell);
    }

    @Test
    @Order(2)
    void with_the_access_memory_broken_through_config_the_soak_fails_and_names_the_invariant() throws Exception {
        // This run must find one violation and name it, which no waiting can hide: the machine is shared from here on.
        MachineShare.shareFromNow();
        Map<String, String> broken = Map.of("QALDY_OPTS_GATE", "-Dqaldy.gate.access-freshness=PT0S -Dqaldy.gate.access-memory=PT1S");
        cell.qaldy("stop", "gate");
        cell.qaldy(broken, "start", "gate");

        Path out = cell.var().resolve("soak/broken");
        Map<String, String> env = new HashMap<>(SOAK);
        env.putAll(broken);
        Cell.Run run = cell.run(env, Duration.ofMinutes(12), "soak", "--minutes", "1", "--seed", BROKEN_SEED, "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isEqualTo(1);
        assertThat(run.output()).contains("qaldy soak: VIOLATED: ").contains("What people already opened keeps working");
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **FAIL**").contains("## First violation: What people already opened keeps working")
                .containsPattern("\\| What people already opened keeps working \\|.*\\| [1-9][0-9]* \\| FAIL \\|")
                .containsPattern("\\| No access the API denied \\|.*\\| 0 \\| PASS \\|");
        DrillIT.assertRunning(cell);
    }
}
