package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 16 item 8: every component's log is bounded. {@code bin/log-relay}, which {@code bin/qaldy}
 * sends each component's stdout and stderr through into {@code var/log/COMPONENT.log}, rotates the
 * file at its size and keeps its number of files, whole lines in order; a component started by
 * {@code bin/qaldy} writes through it (a log already over {@code QALDY_LOG_MAX_MB} is rotated at
 * the start), and the relay ends with the component.
 */
class LogRotationIT {

    @Test
    void the_relay_keeps_at_most_its_files_each_about_its_size_with_the_newest_lines_whole_and_in_order() throws Exception {
        Path dir = Cell.repository().resolve("cell-tests/target/log-relay");
        Files.createDirectories(dir);
        Path file = dir.resolve("relay.log");
        for (String name : List.of("relay.log", "relay.log.1", "relay.log.2", "relay.log.3")) {
            Files.deleteIfExists(dir.resolve(name));
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            lines.add("line " + i + " of the relay test, as long as a short log line");
        }
        Process relay = new ProcessBuilder(Cell.repository().resolve("bin/log-relay").toString(), file.toString(), "4096", "3")
                .redirectErrorStream(true).start();
        try (OutputStream in = relay.getOutputStream()) {
            for (String line : lines) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        assertThat(relay.waitFor(30, TimeUnit.SECONDS)).as("the relay ends with its input").isTrue();
        assertThat(relay.exitValue()).as(new String(relay.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();

        assertThat(dir.resolve("relay.log.3")).doesNotExist();
        List<String> kept = new ArrayList<>();
        for (String name : List.of("relay.log.2", "relay.log.1", "relay.log")) {
            Path part = dir.resolve(name);
            assertThat(Files.size(part)).as(name).isLessThan(4096 + 100);
            kept.addAll(Files.readAllLines(part));
        }
        assertThat(kept).as("the newest lines, whole and in order").isEqualTo(lines.subList(lines.size() - kept.size(), lines.size()));
        assertThat(Files.size(dir.resolve("relay.log.1"))).as("a rotated file is full, to its last whole line")
                .isGreaterThan(4096 - 100);
    }

    @Test
    void a_component_logs_through_the_relay_which_rotates_a_full_log_at_its_start_and_ends_with_the_component() throws Exception {
        try (Cell cell = Cell.stopped("logs", Map.of("QALDY_LOG_MAX_MB", "1", "QALDY_LOG_FILES", "2"))) {
            Path log = cell.var().resolve("log/db.log");
            Files.createDirectories(log.getParent());
            Files.writeString(log.resolveSibling("db.log.1"), "the oldest file\n");
            Files.writeString(log, "a line of an earlier start\n".repeat(60_000)); // 1.6 MB
            cell.qaldy("start", "db");

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Files.readString(log).contains("TCP server running"));
            assertThat(Files.readString(log)).as("this start's lines only").doesNotContain("earlier start");
            String rotated = Files.readString(log.resolveSibling("db.log.1"));
            assertThat(rotated).as("the full log, with this start's marker").startsWith("a line of an earlier start").contains("==== db start");
            assertThat(log.resolveSibling("db.log.2")).as("QALDY_LOG_FILES=2: the oldest file is gone").doesNotExist();

            ProcessHandle db = ProcessHandle.of(cell.pid("db")).orElseThrow();
            List<ProcessHandle> relays = db.children()
                    .filter(p -> p.info().commandLine().orElse("").contains("bin/log-relay")).toList();
            assertThat(relays).as("the database's output goes through one relay").hasSize(1);

            cell.qaldy("stop", "db");
            relays.get(0).onExit().get(10, TimeUnit.SECONDS);
        }
    }
}
