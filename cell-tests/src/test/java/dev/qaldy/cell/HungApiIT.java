package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, finding 2, on a real cell: the control plane SIGSTOPped (hung, not dead) while one
 * remembered person makes sequential requests, and what that person sees. The gate and the runtime
 * host each keep one view of the control plane's health; once it says failing, no request calls
 * the control plane, and its probe runs in the background. Each answer says how many calls to the
 * control plane the request waited on, at each hop ({@code Server-Timing: gate-control;…} and
 * {@code runtime-control;…}), so the test checks that without depending on the machine's speed: at
 * most one request pays at the gate for learning of the hang, none after it, and none while the API
 * comes back; the gate asks again on its own. Timings are measured in {@code bench/hang}. The gate's
 * freshness is shortened to 1 s, so every request past it would ask; the runtime host's is 10 s and
 * its answer fresh when the hang begins, so its first question falls 10 s into the hang: its
 * heartbeat must have found the hang by then, and no request waits there at all (the soak found a
 * person waiting the whole 2 s control timeout there 6.5 s into a hang, when the host learned of a
 * hang only from a person's request).
 */
class HungApiIT {

    static final Pattern GATE_CALLS = Pattern.compile("gate-control;dur=(\\d+);desc=\"(\\d+) calls?\"");
    static final Pattern RUNTIME_CALLS = Pattern.compile("runtime-control;dur=(\\d+);desc=\"(\\d+) calls?\"");
    static Cell cell;
    static Person person;
    static Person stranger;

    /** What one request saw. */
    record Seen(String phase, int status, String access, String code, int gateCalls, int runtimeCalls, long ms) {
    }

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("hung-api", Map.of(
                "QALDY_NO_SEED", "1",
                "QALDY_OPTS_GATE", "-Dqaldy.gate.access-freshness=PT1S",
                // the cap sync's reports and refreshes (every 10 and 15 s) would find a hang too, by luck of their timing
                "QALDY_OPTS_RUNTIME", "-Dqaldy.runtime.live-freshness=PT10S -Dqaldy.cap.report-interval=PT1H -Dqaldy.cap.refresh=PT1H"));
        person = Person.signUp(cell, "remembered@example.com");
        stranger = Person.signUp(cell, "stranger@example.com");
        person.publish("notes", cell.root().resolve("examples/guestbook"));
        person.openApp("notes");
        stranger.openApp("notes"); // a session on the app's origin; the gate never asked about them
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    void a_person_on_the_copy_never_waits_for_a_hung_api_once_each_hop_knows_and_the_gate_asks_again_by_itself() throws Exception {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> "asked".equals(person.get("notes", "/").headers().firstValue("X-Qaldy-Access").orElse("")));
        assertThat(see("normal").status()).as("each answer names both hops' calls (else see() fails)").isEqualTo(200);
        // the runtime host's answer is fresh now: it next asks 10 s into the hang
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> see("normal").runtimeCalls() > 0);

        List<Seen> hang = new ArrayList<>();
        List<Seen> back = new ArrayList<>();
        cell.signal("control", "STOP");
        boolean stopped = true;
        try {
            long until = System.nanoTime() + Duration.ofSeconds(25).toNanos();
            while (System.nanoTime() < until && hang.size() < 150) {
                hang.add(see("hang"));
                Thread.sleep(300);
            }
            assertThat(metrics()).as("the gate's view says failing")
                    .containsPattern("(?m)^qaldy_gate_control_plane_failing(\\{[^}]*\\})? 1(\\.0)?$");
            HttpResponse<String> never = stranger.get("notes", "/"); // signed in to the app, never let in
            assertThat(never.statusCode()).as("never opened the app: 503, not 403").isEqualTo(503);
            assertThat(calls(GATE_CALLS, never)).as("and answered without asking").isZero();

            cell.signal("control", "CONT");
            stopped = false;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            Seen last;
            do {
                last = see("back");
                back.add(last);
                Thread.sleep(300);
            } while (!("asked".equals(last.access()) && "api".equals(last.code())) && System.nanoTime() < deadline);
        } finally {
            if (stopped) {
                cell.signal("control", "CONT");
            }
        }
        hang.forEach(s -> System.out.println("[hung-api] " + s));
        back.forEach(s -> System.out.println("[hung-api] " + s));

        assertThat(hang).as("the remembered person is served throughout")
                .allSatisfy(s -> {
                    assertThat(s.status()).isEqualTo(200);
                    assertThat(s.access()).isIn("fresh-copy", "outage-copy");
                    assertThat(s.code()).isIn("api", "memory");
                });
        assertThat(hang.stream().filter(s -> s.gateCalls() > 0).count())
                .as("requests that waited on the gate's calls to the hung API: at most the one that found it failing")
                .isLessThanOrEqualTo(1);
        assertThat(hang).as("the runtime host's heartbeat found the hang before its copy ran out of freshness: nobody waits there")
                .allSatisfy(s -> assertThat(s.runtimeCalls()).isZero());
        assertThat(hang.subList(hang.size() / 2, hang.size())).as("the hang's second half: nobody waits on the API")
                .allSatisfy(s -> {
                    assertThat(s.gateCalls()).isZero();
                    assertThat(s.runtimeCalls()).isZero();
                    assertThat(s.access()).isEqualTo("outage-copy");
                    assertThat(s.code()).isEqualTo("memory");
                });

        Seen first = back.get(back.size() - 1);
        assertThat(first.access()).as("after SIGCONT the gate asks again, found by its own probe").isEqualTo("asked");
        assertThat(first.code()).as("and so does the runtime host").isEqualTo("api");
        // While the view said failing nobody asked; a call made once the probe found the API back is an
        // ordinary one, bounded by its timeout, and may still fail once on a control plane just woken.
        int firstAsked = indexOf(back, "asked");
        assertThat(back.subList(0, firstAsked).stream().filter(s -> s.gateCalls() > 0).count())
                .as("no person's request probed the API while it came back").isLessThanOrEqualTo(1);
        assertThat(back).allSatisfy(s -> assertThat(s.status()).isEqualTo(200));
    }

    static int indexOf(List<Seen> seen, String access) {
        for (int i = 0; i < seen.size(); i++) {
            if (access.equals(seen.get(i).access())) {
                return i;
            }
        }
        return seen.size();
    }

    /** One request of the person, and what it says of itself. */
    static Seen see(String phase) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = person.get("notes", "/");
        long ms = (System.nanoTime() - start) / 1_000_000;
        return new Seen(phase, response.statusCode(), response.headers().firstValue("X-Qaldy-Access").orElse("-"),
                response.headers().firstValue("X-Qaldy-Code").orElse("-"), calls(GATE_CALLS, response),
                calls(RUNTIME_CALLS, response), ms);
    }

    /** The calls to the control plane a hop's {@code Server-Timing} entry names; fails when the entry is missing. */
    static int calls(Pattern entry, HttpResponse<String> response) {
        String timing = String.join(", ", response.headers().allValues("Server-Timing"));
        Matcher m = entry.matcher(timing);
        assertThat(m.find()).as("Server-Timing names %s: %s", entry.pattern(), timing).isTrue();
        return Integer.parseInt(m.group(2));
    }

    static String metrics() throws Exception {
        String token = cell.credential("metrics-to-gate");
        return cell.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.port("gate") + "/metrics"))
                .header("X-Qaldy-Service-Token", token).GET().build()).body();
    }
}
