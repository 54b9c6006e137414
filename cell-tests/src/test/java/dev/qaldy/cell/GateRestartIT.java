package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 14, findings 3 and 4, on a real cell: a gate restarted (gracefully, then by SIGKILL with the
 * control plane killed) keeps the shield's counters, so a client limited before stays limited for
 * the rest of its window and an app that reached its daily limit for the rest of its day; while the
 * gate stops and starts, a person asking for an app that exists never gets a 404 or an answer the
 * gate did not make; a gate not ready within {@code QALDY_READY_TIMEOUT_S} during an outage is left
 * running (exit 3), not killed; damaged state files of the gate (cap, shield counters, owners'
 * settings) are set aside with one log line each, the gate becomes ready, and what they held fails
 * closed.
 *
 * <p>Limits through config: "ratelimited" gives a client 1 request a minute with a burst of 10 (empty
 * → full in 10 min), "daily" and "daily2" 6 requests a day; days are 4 hours long. The gate believes
 * {@code X-Forwarded-For} from loopback, so each test is its own client.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GateRestartIT {

    static final int BURST = 10;
    static final int PER_DAY = 6;
    static final Duration DAY = Duration.ofHours(4);
    static final String APP = "meter";

    static Cell cell;
    static Person owner;
    static long account;
    /** The control plane's credential for the gates (control-to-gate). */
    static String serviceToken;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("gate-restart", Map.of(
                "QALDY_NO_SEED", "1",
                "QALDY_OPTS_GATE", "-Dqaldy.gate.trusted-proxies=127.0.0.1/32 -Dqaldy.gate.shield.refresh=PT1S"
                        + " -Dqaldy.gate.shield.day-length=" + DAY
                        + " -Dqaldy.gate.shield.plan.tiny.per-client-per-minute=1 -Dqaldy.gate.shield.plan.tiny.burst=" + BURST
                        + " -Dqaldy.gate.shield.plan.few.per-app-per-day=" + PER_DAY
                        + " -Dqaldy.gate.shield.app.ratelimited.plan=tiny"
                        + " -Dqaldy.gate.shield.app.daily.plan=few -Dqaldy.gate.shield.app.daily2.plan=few"));
        serviceToken = cell.credential("control-to-gate");
        owner = Person.signUp(cell, "restarts@example.com");
        account = Person.json(owner.api("GET", "/people/me", null).body()).getJsonNumber("id").longValue();
        owner.publish(APP, cell.root().resolve("examples/guestbook"));
        HttpResponse<String> shield = owner.api("PUT", "/apps/" + APP + "/shield", "{\"blockedUserAgents\":[\"(?i)evilbot\"]}");
        assertThat(shield.statusCode()).as(shield.body()).isEqualTo(200);
        owner.openApp(APP);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> asBot().statusCode() == 403 && owner.get(APP, "/").statusCode() == 200);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void a_graceful_restart_keeps_the_shields_counters_and_never_answers_404_while_the_gate_starts() throws Exception {
        Instant limited = exhaustBucket("198.51.100.1");
        exhaustDay("daily");

        try (StartingGate prober = new StartingGate(cell, () -> owner.browserRequest("gate", APP, "/")
                .header("X-Forwarded-For", "192.0.2.200").timeout(Duration.ofSeconds(2)).GET().build())) {
            cell.qaldy("stop", "gate");
            cell.qaldy("start", "gate");
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> owner.get(APP, "/").statusCode() == 200);
            prober.close();
            assertNothingWrongWhileStarting(prober.answers());
        }

        assertStillLimited("198.51.100.1", limited);
        HttpResponse<String> day = appRequest("daily", "198.51.100.9");
        assertThat(day.statusCode()).as("the app's day was used up before the restart").isEqualTo(429);
        assertThat(day.headers().firstValue("X-Qaldy-Shield")).hasValue("daily-limit");
    }

    @Test
    @Order(2)
    void a_gate_killed_and_started_during_an_outage_is_left_running_and_keeps_its_counters() throws Exception {
        Instant limited = exhaustBucket("198.51.100.2");
        exhaustDay("daily2");
        // the periodic write (every second) has both, before the kill
        Path counters = cell.var().resolve("gate-shield/shield-state.jsonl");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> Files.exists(counters)
                && Files.readString(counters).contains("\"day\":\"daily2\"") && Files.readString(counters).contains("198.51.100.2"));

        cell.qaldy("stop", "control", "--kill");
        cell.qaldy("stop", "gate", "--kill");
        try (StartingGate prober = new StartingGate(cell, () -> owner.browserRequest("gate", APP, "/")
                .header("X-Forwarded-For", "192.0.2.201").timeout(Duration.ofSeconds(2)).GET().build())) {
            // a machine too slow for the launcher's patience: not ready within 5 s, while the API is down
            Cell.Run start = cell.run(Map.of("QALDY_READY_TIMEOUT_S", "5"), Duration.ofMinutes(5), "start", "gate");
            assertThat(start.exit()).as(start.output()).isEqualTo(3);
            assertThat(start.output()).contains("gate is running").contains("not ready after 5s").contains("control plane")
                    .contains("left running").doesNotContain("stopping gate");
            long pid = cell.pid("gate");
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("not killed").hasValue(true);
            awaitGateReady();
            assertThat(cell.pid("gate")).as("the same process became ready").isEqualTo(pid);
            prober.close();
            assertNothingWrongWhileStarting(prober.answers());
        }

        assertStillLimited("198.51.100.2", limited);
        HttpResponse<String> day = appRequest("daily2", "198.51.100.9");
        assertThat(day.statusCode()).as("the day used up before the kill, with the API down").isEqualTo(429);
        assertThat(day.headers().firstValue("X-Qaldy-Shield")).hasValue("daily-limit");
        assertThat(cell.qaldy("status")).containsPattern("gate +" + cell.pid("gate") + " +\\d+ +ready ");
    }

    @Test
    @Order(3)
    void damaged_state_files_are_set_aside_with_one_line_each_and_what_they_held_fails_closed() throws Exception {
        // the control plane is still down (test 2)
        assertThat(held()).as("the gate holds the owner's cap state").contains("\"accountId\":" + account);
        cell.qaldy("stop", "gate");
        Path cap = cell.var().resolve("gate-cap/account-" + account + ".json");
        Path counters = cell.var().resolve("gate-shield/shield-state.jsonl");
        Path settings = cell.var().resolve("gate-shield/shield-settings.json");
        for (Path file : List.of(cap, counters, settings)) {
            assertThat(file).exists();
        }
        Map<Path, String> damaged = Map.of(
                cap, "{\"v\":1,\"accountId\":" + account + ",\"state\":\"ey",
                counters, Files.readString(counters).replace("\"count\":", "\"count\":1"),
                settings, "{\"next\":3,\"settings\":[{\"app\":");
        for (Map.Entry<Path, String> file : damaged.entrySet()) {
            Files.writeString(file.getKey(), file.getValue());
        }
        Instant countersWritten = Files.getLastModifiedTime(counters).toInstant(); // what the gate goes by

        Cell.Run start = cell.run(Map.of(), Duration.ofMinutes(6), "start", "gate");
        assertThat(start.exit()).as(start.output()).isIn(0, 3);
        awaitGateReady();

        for (Map.Entry<Path, String> file : damaged.entrySet()) {
            Path aside = file.getKey().resolveSibling(file.getKey().getFileName() + ".refused");
            assertThat(aside).as("set aside").hasContent(file.getValue());
            if (Files.exists(file.getKey())) { // written anew by this gate (counters, and settings marked incomplete)
                assertThat(Files.readString(file.getKey())).as("never read, never kept").isNotEqualTo(file.getValue());
            }
        }
        assertThat(Files.readString(settings)).as("a restart before the feed is read again still knows it knows nothing")
                .contains("\"complete\":false");
        List<String> log = thisStartsLog();
        assertThat(log).filteredOn(l -> l.contains("cap: refused the kept file")).as("one line for the cap file").hasSize(1);
        assertThat(log).filteredOn(l -> l.contains("cannot read the counters kept in")).as("one for the counters").hasSize(1);
        assertThat(log).filteredOn(l -> l.contains("cannot read the apps' own settings kept in")).as("one for the settings").hasSize(1);

        // fail closed, with the API down: the owners' settings are unknown, so app traffic gets 503, not config's settings
        HttpResponse<String> unknown = owner.get(APP, "/");
        assertThat(unknown.statusCode()).isEqualTo(503);
        assertThat(unknown.headers().firstValue("X-Qaldy-Shield")).hasValue("settings-unknown");
        assertThat(held()).as("the account counts as unknown: no cap state held").doesNotContain("\"accountId\":" + account);

        cell.qaldy("start", "control");
        // the owner's settings come back from the control plane, and the cap state too
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> asBot().statusCode() == 403);
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> held().contains("\"accountId\":" + account));
        // the day in force when the counters were last written counts as used up, for every app
        HttpResponse<String> day = owner.get(APP, "/");
        if (sameDay(countersWritten, Instant.now())) {
            assertThat(day.statusCode()).as("the day of the damaged counters counts as used up").isEqualTo(429);
            assertThat(day.headers().firstValue("X-Qaldy-Shield")).hasValue("daily-limit");
        } else {
            assertThat(day.statusCode()).as("a new day began since they were written").isEqualTo(200);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** A request to an app's origin as the client {@code client} (through the trusted loopback proxy), without a session. */
    private static HttpResponse<String> appRequest(String app, String client) throws IOException, InterruptedException {
        return cell.send(cell.request(cell.appHost(app), "/").header("X-Forwarded-For", client).header("Accept", "text/html")
                .GET().build());
    }

    private static HttpResponse<String> asBot() throws Exception {
        return cell.send(owner.browserRequest("gate", APP, "/").header("User-Agent", "EvilBot/1.0").GET().build());
    }

    /** Uses up {@code client}'s bucket on "ratelimited" (a burst of 10); returns when it was first refused. */
    private static Instant exhaustBucket(String client) throws Exception {
        for (int i = 0; i < BURST; i++) {
            assertThat(appRequest("ratelimited", client).statusCode()).as("request %d of the burst", i + 1).isNotEqualTo(429);
        }
        HttpResponse<String> refused = appRequest("ratelimited", client);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("X-Qaldy-Shield")).hasValue("rate-limit");
        return Instant.now();
    }

    /**
     * After a restart: {@code client} gets no more than its bucket refilled since it was limited (1 a
     * minute), never the whole burst a fresh bucket would give.
     */
    private static void assertStillLimited(String client, Instant limited) throws Exception {
        long refilled = Duration.between(limited, Instant.now()).toMinutes() + 1;
        assertThat(refilled).as("the restart took less than the bucket's 10 minutes to refill").isLessThan(BURST);
        int passed = 0;
        while (passed <= BURST && appRequest("ratelimited", client).statusCode() != 429) {
            passed++;
        }
        assertThat(passed).as("a client limited before the restart gets at most what refilled since").isLessThanOrEqualTo((int) refilled);
    }

    /**
     * Uses up {@code app}'s day ({@value #PER_DAY} requests). If that day ends within 10 minutes, waits
     * for the next one and uses it up instead, so the test never races a day's end.
     */
    private static void exhaustDay(String app) throws Exception {
        for (int round = 0; round < 2; round++) {
            HttpResponse<String> refused = null;
            for (int i = 0; i <= PER_DAY && refused == null; i++) {
                HttpResponse<String> response = appRequest(app, "203.0.113." + (i + 1));
                if (response.statusCode() == 429) {
                    refused = response;
                }
            }
            assertThat(refused).as("refused within %d requests", PER_DAY + 1).isNotNull();
            assertThat(refused.headers().firstValue("X-Qaldy-Shield")).hasValue("daily-limit");
            long left = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
            if (left > Duration.ofMinutes(10).toSeconds()) {
                return;
            }
            Instant next = Instant.now().plusSeconds(left + 1);
            await().atMost(Duration.ofMinutes(11)).pollInterval(Duration.ofSeconds(1)).until(() -> Instant.now().isAfter(next));
        }
    }

    private static boolean sameDay(Instant a, Instant b) {
        return a.toEpochMilli() / DAY.toMillis() == b.toEpochMilli() / DAY.toMillis(); // UTC: no shift
    }

    /** What the gate holds of the cap, as its service view shows it. */
    private static String held() throws Exception {
        HttpResponse<String> view = cell.send(cell.internalRequest("gate", "/.qaldy/internal/cap-states")
                .header("X-Qaldy-Service-Token", serviceToken).GET().build());
        assertThat(view.statusCode()).isEqualTo(200);
        return view.body();
    }

    private static void awaitGateReady() {
        await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() ->
                cell.send(cell.request("127.0.0.1:" + cell.port("gate"), "/health/ready").timeout(Duration.ofSeconds(3)).GET().build())
                        .statusCode() == 200);
    }

    /** The gate's log lines since its last start. */
    private static List<String> thisStartsLog() throws IOException {
        List<String> lines = Files.readAllLines(cell.var().resolve("log/gate.log"));
        int from = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("==== gate start")) {
                from = i;
            }
        }
        return lines.subList(from, lines.size());
    }

    /** No answer while the gate stopped and started was a 404, or a 200 (or any other) the gate's filter did not make. */
    private static void assertNothingWrongWhileStarting(List<StartingGate.Answer> answers) {
        assertThat(answers).as("the prober asked throughout").hasSizeGreaterThan(20);
        assertThat(answers).as("a refused connection, a 503 or the gate's own answer, never Payara's or Liberty's").noneMatch(StartingGate.Answer::wrong);
        assertThat(answers).filteredOn(a -> a.status() == 200).allMatch(a -> a.access() != null);
        assertThat(answers).as("the gate was down for a while").anyMatch(a -> a.status() == -1);
    }
}
