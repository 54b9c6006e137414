package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 8: the same artifacts on Open Liberty. A whole cell from {@code bin/qaldy up --server
 * liberty} (the control plane as the control EAR, the WARs unchanged, the H2 TCP server as on
 * Payara), the seeded guestbook opened, and {@code bin/qaldy drill} passing every row of the
 * seed's table on it, the API killed and then the database stopped for real (the control plane
 * restarted without the flag, on Liberty again; the schedule's catch-up through the EAR's
 * scheduler module's EJB timers). Durations shortened through config: access freshness 1 s, API
 * timeout 500 ms, console poll 2 s, cap states every 2 s, scheduler ticks every 2 s, the drill's
 * schedule every 15 s (cron with seconds, allowed on this cell). Last, a gate restart watched by a
 * person asking for the guestbook throughout: never a 404 or an answer Liberty made alone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LibertyCellIT {

    static Cell cell;
    static Person owner;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("liberty", Map.of(
                // One Liberty install for every Liberty cell of the build, installed once from Maven Central.
                "QALDY_LIBERTY_HOME", Cell.repository().resolve("cell-tests/target/liberty/wlp").toString(),
                "QALDY_OPTS", "-Dqaldy.cap.refresh=PT2S -Dqaldy.cap.report-interval=PT1S",
                "QALDY_OPTS_GATE", "-Dqaldy.gate.access-freshness=PT1S"
                        + " -Dqaldy.console.poll-interval=PT2S -Dqaldy.gate.shield.refresh=PT1S",
                "QALDY_OPTS_RUNTIME", "-Dqaldy.runtime.live-freshness=PT1S",
                "QALDY_OPTS_CONTROL", "-Dqaldy.scheduler.tick-interval=PT2S -Dqaldy.scheduler.allow-seconds=true",
                Cell.NO_STATUS, Cell.WITH_STATUS_PAGE), "liberty"); // the status page runs on Liberty too
        Map<String, String> demo = cell.demoEnv();
        owner = Person.existing(cell, demo.get("QALDY_DEMO_EMAIL"), demo.get("QALDY_DEMO_PASSWORD"));
        owner.openApp("guestbook");
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void every_component_but_the_database_runs_on_liberty_and_the_control_plane_is_the_ear() throws Exception {
        String status = cell.qaldy("status");
        assertThat(status).containsPattern("db\\s+\\d+\\s+" + cell.port("db") + "\\s+ready\\s+h2");
        for (String component : new String[] {"control", "runtime", "gate", "status"}) {
            assertThat(status).containsPattern(component + "\\s+\\d+\\s+" + cell.port(component) + "\\s+ready\\s+liberty");
        }
        assertThat(cell.var().resolve("liberty/servers/control/apps/control.ear")).isRegularFile();
        assertThat(Files.readString(cell.var().resolve("liberty/servers/control/logs/messages.log")))
                .contains("CWWKZ0001I").contains("control");
    }

    @Test
    @Order(3)
    void a_bad_host_port_gets_a_4xx_the_internal_paths_a_404_and_the_owners_shield_settings_reach_a_liberty_gate() throws Exception {
        int port = cell.port("gate");
        for (String host : List.of("guestbook.localhost:" + port + "@evil.example", "guestbook.localhost:" + port + ":1",
                "guestbook.localhost:abc")) {
            String reply = PublishAndOpenIT.raw(port, "GET / HTTP/1.1\r\nHost: " + host
                    + "\r\nUser-Agent: qaldy-cell-test\r\nAccept: text/html\r\nConnection: close\r\n\r\n");
            assertThat(reply).as(host).startsWith("HTTP/1.1 4").doesNotContain("Guestbook");
        }

        // Issue 16: the control plane's calls to the gate on its internal endpoint only; the public one 404s them.
        String fromControl = cell.credential("control-to-gate");
        for (String path : GateOutageIT.INTERNAL_PATHS) {
            HttpResponse<String> outside = cell.send(cell.request(cell.publicHost(), path).header("Accept", "text/html")
                    .header("X-Qaldy-Service-Token", fromControl).GET().build());
            assertThat(outside.statusCode()).as(path + " on the public port").isEqualTo(404);
            assertThat(outside.body()).contains("Page not found");
        }
        assertThat(cell.send(cell.internalRequest("gate", "/.qaldy/internal/cap-states")
                .header("X-Qaldy-Service-Token", fromControl).GET().build()).statusCode()).as("on the internal endpoint").isEqualTo(200);

        HttpResponse<String> set = owner.api("PUT", "/apps/guestbook/shield", "{\"blockedUserAgents\":[\"(?i)liberty-bot\"]}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            HttpResponse<String> bot = cell.send(owner.browserRequest("gate", "guestbook", "/").header("User-Agent", "Liberty-Bot/1").GET().build());
            return bot.statusCode() == 403 && "bot-rule".equals(bot.headers().firstValue("X-Qaldy-Shield").orElse(""));
        });
        assertThat(owner.api("PUT", "/apps/guestbook/shield", "{}").statusCode()).isEqualTo(200);
    }

    @Test
    @Order(4)
    void the_drill_passes_every_row_of_the_seed_table_on_liberty() throws Exception {
        Path out = cell.var().resolve("drill/liberty");
        Cell.Run run = cell.run(Map.of("QALDY_DRILL_OPTS",
                        "-Dqaldy.drill.return-wait=PT90S -Dqaldy.drill.catch-up-wait=PT90S -Dqaldy.drill.cron=*/15_*_*_*_*_* -Dqaldy.drill.tick-margin=PT6S"
                                // this cell's gate: access freshness 1 s (QALDY_OPTS_GATE above)
                                + " -Dqaldy.drill.access-freshness=PT1S"),
                Duration.ofMinutes(20), "drill", "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isZero();
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **PASS**").contains("## The API killed").contains("## The database stopped");
        assertThat(md).as("past the gate's freshness window, from its outage copy").contains("access outage-copy");
        assertThat(out.resolve("console-kill.png")).isNotEmptyFile();
        // issue 20: the status page as people read it in each pass, in a second tab of the console user's browser
        assertThat(md).contains("a person reading the status page");
        assertThat(out.resolve("status-kill.png")).isNotEmptyFile();
        assertThat(out.resolve("status-db.png")).isNotEmptyFile();
        // bin/qaldy start without --server: the cell remembers control ran on Liberty.
        assertThat(cell.qaldy("status")).containsPattern("control\\s+\\d+\\s+" + cell.port("control") + "\\s+ready\\s+liberty");
    }

    @Test
    @Order(2)
    void the_seeded_guestbook_opens_for_its_owner_and_not_for_a_person_it_was_not_shared_with() throws Exception {
        HttpResponse<String> asked = owner.get("guestbook", "/");
        assertAccess(asked, 200, "asked");
        assertThat(asked.body()).contains("Guestbook");
        Person stranger = Person.signUp(cell, "stranger@example.com");
        stranger.openApp("guestbook");
        assertThat(stranger.get("guestbook", "/").statusCode()).isEqualTo(403);
    }

    @Test
    @Order(5)
    void the_status_page_on_liberty_answers_bad_json_with_a_400_and_loses_nothing() throws Exception {
        StatusPageInput.badJsonIsA400AndNothingIsLost(cell);
    }

    /**
     * Issue 14, finding 4, on Liberty: while a gate restarts, a person asking for an app that exists
     * gets a refused connection, a 503 or the gate's own answer, never Liberty's 404 or welcome page
     * (the port opens once the application has started, not after applicationManager's 30 s).
     */
    @Test
    @Order(6)
    void a_restarting_liberty_gate_never_answers_for_an_app_before_its_filter_runs() throws Exception {
        try (StartingGate prober = new StartingGate(cell, () -> owner.browserRequest("gate", "guestbook", "/")
                .timeout(Duration.ofSeconds(2)).GET().build())) {
            cell.qaldy("stop", "gate");
            cell.qaldy("start", "gate");
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> owner.get("guestbook", "/").statusCode() == 200);
            prober.close();
            List<StartingGate.Answer> answers = prober.answers();
            assertThat(answers).hasSizeGreaterThan(20).anyMatch(a -> a.status() == -1).noneMatch(StartingGate.Answer::wrong);
            assertThat(answers).filteredOn(a -> a.status() == 200).allMatch(a -> a.access() != null);
        }
    }

    /**
     * Issue 14's soak on Liberty: with the database hung, requests through a gate that waited on
     * the API (each up to the API's 10 s database bound) held the gate's request threads, and a
     * person served from the copy, or refused by the shield without asking anyone, queued behind
     * them for up to 2.7 s: Liberty's default executor starts at twice the CPUs (4 here) and its
     * controller adds threads every 1.5 s (Payara's request pool makes one at once). Here twelve
     * callers of the API wait on the hung database, each asking every 5 s and giving up after 5 s (a
     * console gives up after 10 s; the gate's call goes on waiting, within the gate's bound of
     * requests waiting on the control plane), so waiting requests pile up in the gate twelve at a
     * time, while the owner opens the guestbook every 250 ms: past the hang's first seconds (the
     * gate learning of it), each answer is the copy, within the soak's hang wait (1 s). Before the
     * change, the person waited 3.7 to 4.2 s at a pile. Since issue 19 the gate makes no API call
     * while its view of the control plane says failing (the API's ping answers 503 with its database
     * hung) and gives up those waiting when it turns failing, so the callers get 503 (the first
     * wave given up when the view turned failing, 1.4 s into the hang in the clean-clone run of
     * 62c7e25) and nothing piles up at all.
     */
    @Test
    @Order(7)
    void a_person_on_the_copy_never_queues_behind_api_requests_waiting_on_a_hung_database() throws Exception {
        assertThat(owner.get("guestbook", "/").statusCode()).isEqualTo(200);
        int waiters = 12;
        AtomicBoolean hung = new AtomicBoolean(true);
        AtomicInteger waited = new AtomicInteger();
        ExecutorService console = Executors.newFixedThreadPool(waiters);
        List<String> slow = new ArrayList<>();
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        int served = 0;
        Path messages = cell.var().resolve("liberty/servers/control/logs/messages.log");
        long logFrom = Files.size(messages);
        cell.signal("db", "STOP");
        long began = System.nanoTime();
        try {
            for (int i = 0; i < waiters; i++) {
                console.submit(() -> {
                    while (hung.get()) {
                        long start = System.nanoTime();
                        String outcome;
                        try {
                            outcome = Integer.toString(cell.send(cell.request(cell.publicHost(), "/api/v1/apps")
                                    .timeout(Duration.ofSeconds(5)).header("Authorization", "Bearer " + owner.token())
                                    .GET().build()).statusCode());
                        } catch (IOException e) { // given up after 5 s, as a console does after 10 s
                            outcome = e.getClass().getSimpleName();
                        }
                        long ms = (System.nanoTime() - start) / 1_000_000;
                        if (ms > 2_000) {
                            waited.incrementAndGet();
                        }
                        calls.add(outcome + " after " + ms + " ms");
                        long rest = start + Duration.ofSeconds(5).toNanos() - System.nanoTime();
                        if (rest > 0) { // a poll every 5 s, as a console polls (every 15 s)
                            TimeUnit.NANOSECONDS.sleep(rest);
                        }
                    }
                    return null;
                });
            }
            while (System.nanoTime() - began < Duration.ofSeconds(30).toNanos()) {
                long start = System.nanoTime();
                HttpResponse<String> page = owner.get("guestbook", "/");
                long ms = (System.nanoTime() - start) / 1_000_000;
                long at = (start - began) / 1_000_000;
                String access = page.headers().firstValue("X-Qaldy-Access").orElse("-");
                if (at > 3_000) { // past the hang's first seconds: the gate and the runtime host know of it
                    served++;
                    if (page.statusCode() != 200 || !"outage-copy".equals(access) || ms > 1_000) {
                        slow.add("+" + at + " ms: " + page.statusCode() + " " + access + " after " + ms + " ms");
                    }
                }
                Thread.sleep(250);
            }
        } finally {
            hung.set(false);
            cell.signal("db", "CONT");
            console.shutdown();
            console.awaitTermination(1, TimeUnit.MINUTES);
        }
        assertThat(slow).as("answers from the copy later than the hang wait, or not from the copy").isEmpty();
        assertThat(served).isGreaterThan(50);
        assertThat(calls).as("the console's calls are answered, none given up after 5 s: %s", calls).isNotEmpty()
                .allMatch(c -> c.startsWith("503 ") || c.startsWith("200 "));
        assertThat(waited.get()).as("past the view's decision no API call waits on the hung database: %s", calls)
                .isLessThanOrEqualTo(waiters);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> owner.api("GET", "/apps", null).statusCode() == 200);
        // Issue 21: the hang is said once when it begins and once when it ends; the pool's waits were an
        // error line each (J2CA0045E, 32 in this test) and every readiness probe a warning per DOWN check.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> LibertyAdminIT.recordsSince(messages, logFrom).stream().anyMatch(r -> r.contains("I database answers again")));
        List<String> records = LibertyAdminIT.recordsSince(messages, logFrom);
        System.out.println("the control plane's messages.log across the hang: " + (Files.size(messages) - logFrom) + " bytes:\n  "
                + String.join("\n  ", records.stream().map(r -> r.substring(0, Math.min(200, r.length()))).toList()));
        assertThat(records).as("no error line").noneMatch(r -> r.contains(" E "));
        assertThat(records).as("warnings only the application's own, said once each")
                .filteredOn(r -> r.contains(" W ")).allMatch(r -> r.contains(" dev.qaldy."));
        assertThat(records).filteredOn(r -> r.contains("W database unreachable")).hasSize(1);
    }

    static void assertAccess(HttpResponse<String> response, int status, String source) {
        assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("X-Qaldy-Access")).as("X-Qaldy-Access").hasValue(source);
    }
}
