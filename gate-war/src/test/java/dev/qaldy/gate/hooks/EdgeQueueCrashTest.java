package dev.qaldy.gate.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of the gate's queue with real processes (issue 17): a child process appends and hands
 * over deliveries until it is SIGKILLed mid-work, or asked to stop cleanly, round after round on the
 * same file. After each, every delivery it had acknowledged (the 202) and not handed over is there,
 * in order, and none it had handed over comes back; the file always opens. (The crash images of
 * {@link EdgeQueueTest} are what found H2's MVStore unable to reopen its own file.)
 */
class EdgeQueueCrashTest {

    private static final Pattern LINE = Pattern.compile("(queued|removed) (\\d+)");
    private static final Pattern NUMBER = Pattern.compile("\"n\":(\\d+)");

    @TempDir
    Path dir;

    static long number(QueuedDelivery d) {
        Matcher m = NUMBER.matcher(new String(d.body(), StandardCharsets.UTF_8));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    @Test
    void what_was_acknowledged_survives_kills_and_clean_stops_in_any_order() throws Exception {
        Set<Long> acknowledged = new HashSet<>();
        Set<Long> handedOver = new HashSet<>();
        long next = 1;
        for (int round = 0; round < 12; round++) {
            boolean kill = round % 3 != 2;
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), EdgeQueueCrashChild.class.getName(), dir.toString(), Long.toString(next))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                assertThat(out.readLine()).as("round " + round + ": the queue opens").startsWith("open ");
                int lines = 0;
                int stopAfter = 40 + round * 17;
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher m = LINE.matcher(line);
                    if (m.matches()) {
                        long n = Long.parseLong(m.group(2));
                        (m.group(1).equals("queued") ? acknowledged : handedOver).add(n);
                        next = Math.max(next, n + 1);
                    }
                    if (++lines == stopAfter) {
                        if (kill) {
                            child.toHandle().destroyForcibly(); // SIGKILL, mid-append or mid-removal; its output is still read
                        } else {
                            OutputStream in = child.getOutputStream();
                            in.write('\n');
                            in.flush();
                        }
                    }
                }
            } finally {
                child.destroyForcibly();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            next += 1; // what the killed child appended without saying so may be there: no number is used twice
            List<Long> held = new ArrayList<>();
            try (EdgeQueue queue = new EdgeQueue(dir, EdgeQueueTest.ROOMY_FOR_CRASHES, Logger.getLogger("crash-test"))) {
                queue.head(Integer.MAX_VALUE).forEach(e -> held.add(number(e.delivery())));
            }
            assertThat(held).as("round " + round + ": in order of receipt").isSorted();
            Set<Long> waiting = new HashSet<>(acknowledged);
            waiting.removeAll(handedOver);
            // Killed between a hand-over's removal and its line, the head is gone unsaid: the one delivery allowed to be missing.
            Set<Long> required = new HashSet<>(waiting);
            if (kill && !waiting.isEmpty()) {
                required.remove(waiting.stream().min(Long::compare).orElseThrow());
            }
            assertThat(held).as("round " + round + " (" + (kill ? "killed" : "stopped") + "): every acknowledged delivery not handed over")
                    .containsAll(required);
            assertThat(held).as("round " + round + ": none handed over comes back").doesNotContainAnyElementsOf(handedOver);
            waiting.removeAll(held);
            handedOver.addAll(waiting);
        }
    }
}
