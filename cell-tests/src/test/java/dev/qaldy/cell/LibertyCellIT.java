package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8: the same artifacts on Open Liberty. A whole cell from {@code bin/qaldy up --server
 * liberty} (the control plane as the control EAR, the WARs unchanged, the H2 TCP server as on
 * Payara), the seeded guestbook opened, and the seed's rule checked with the API killed for real:
 * the person the gate remembers keeps access, a person it never saw gets 503, and once the API is
 * back (restarted without the flag, on Liberty again) both are asked and the minute the scheduler
 * missed runs once as a catch-up (EJB timers of the EAR's scheduler module). Durations shortened
 * through config: access freshness 1 s, API timeout 500 ms, scheduler ticks every 2 s.
 */
class LibertyCellIT {

    static Cell cell;
    static Person owner;
    static Person newcomer;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("liberty", Map.of(
                // One Liberty install for every Liberty cell of the build, unzipped once from Maven.
                "QALDY_LIBERTY_HOME", Cell.repository().resolve("cell-tests/target/liberty/wlp").toString(),
                "QALDY_OPTS_GATE", "-Dqaldy.gate.access-freshness=PT1S -Dqaldy.gate.access-timeout-ms=500"
                        + " -Dqaldy.gate.breaker-delay-ms=2000 -Dqaldy.gate.shield.refresh=PT1S",
                "QALDY_OPTS_RUNTIME", "-Dqaldy.runtime.live-freshness=PT1S",
                "QALDY_OPTS_CONTROL", "-Dqaldy.scheduler.tick-interval=PT2S"), "liberty");
        Map<String, String> demo = cell.demoEnv();
        owner = Person.existing(cell, demo.get("QALDY_DEMO_EMAIL"), demo.get("QALDY_DEMO_PASSWORD"));
        newcomer = Person.signUp(cell, "newcomer@example.com");
        assertThat(owner.api("POST", "/apps/guestbook/shares", "{\"email\":\"newcomer@example.com\"}").statusCode())
                .isEqualTo(201);
        owner.openApp("guestbook");
        newcomer.openApp("guestbook"); // signed in on the app's origin, but never let in yet
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
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
    void killed_api_the_remembered_person_keeps_the_app_a_newcomer_gets_503_and_once_it_is_back_both_are_asked_and_the_missed_minute_runs_once()
            throws Exception {
        HttpResponse<String> asked = owner.get("guestbook", "/");
        assertAccess(asked, 200, "asked");
        assertThat(asked.body()).contains("Guestbook");
        HttpResponse<String> schedule = owner.api("POST", "/apps/guestbook/schedules", "{\"cron\":\"* * * * *\",\"job\":\"digest\"}");
        assertThat(schedule.statusCode()).as(schedule.body()).isEqualTo(201);
        long everyMinute = Person.json(schedule.body()).getJsonNumber("id").longValue();
        Thread.sleep(1_200); // past the freshness window: the next request asks the API

        cell.qaldy("stop", "control", "--kill");
        Instant missed = Instant.now().truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
        try {
            HttpResponse<String> fromCopy = owner.get("guestbook", "/");
            assertAccess(fromCopy, 200, "outage-copy");
            assertThat(fromCopy.body()).contains("Guestbook");

            HttpResponse<String> never = newcomer.get("guestbook", "/");
            assertThat(never.statusCode()).as("never let in before the outage → 503, not 403").isEqualTo(503);
            assertThat(never.body()).contains("Temporarily unavailable");

            sleepUntil(missed.plusSeconds(2)); // the every-minute schedule misses a tick
        } finally {
            cell.qaldy("start", "control"); // no --server: the cell remembers control ran on Liberty
        }
        assertThat(cell.qaldy("status")).containsPattern("control\\s+\\d+\\s+" + cell.port("control") + "\\s+ready\\s+liberty");

        // Liberty's breaker (Failsafe inside) weighs its window after a success too: the first good
        // answer after the outage can open it once more for breaker-delay (2 s here), so both wait.
        for (Person person : new Person[] {owner, newcomer}) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
                HttpResponse<String> page = person.get("guestbook", "/");
                return page.statusCode() == 200 && "asked".equals(page.headers().firstValue("X-Qaldy-Access").orElse(""));
            });
        }

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> catchUps(everyMinute, missed).stream().anyMatch(r -> "succeeded".equals(r.getString("state", ""))));
        Thread.sleep(6_000); // three more scheduler ticks: still one
        assertThat(catchUps(everyMinute, missed)).as("the missed minute runs once").hasSize(1);
    }

    @Test
    void a_bad_host_port_gets_a_4xx_and_the_owners_shield_settings_reach_a_liberty_gate() throws Exception {
        int port = cell.port("gate");
        for (String host : List.of("guestbook.localhost:" + port + "@evil.example", "guestbook.localhost:" + port + ":1",
                "guestbook.localhost:abc")) {
            String reply = PublishAndOpenIT.raw(port, "GET / HTTP/1.1\r\nHost: " + host
                    + "\r\nUser-Agent: qaldy-cell-test\r\nAccept: text/html\r\nConnection: close\r\n\r\n");
            assertThat(reply).as(host).startsWith("HTTP/1.1 4").doesNotContain("Guestbook");
        }

        HttpResponse<String> set = owner.api("PUT", "/apps/guestbook/shield", "{\"blockedUserAgents\":[\"(?i)liberty-bot\"]}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            HttpResponse<String> bot = cell.send(owner.browserRequest("gate", "guestbook", "/").header("User-Agent", "Liberty-Bot/1").GET().build());
            return bot.statusCode() == 403 && "bot-rule".equals(bot.headers().firstValue("X-Qaldy-Shield").orElse(""));
        });
        assertThat(owner.api("PUT", "/apps/guestbook/shield", "{}").statusCode()).isEqualTo(200);
    }

    /** The catch-up runs of a schedule for ticks at or after {@code from} (the run API of issue 6). */
    static List<JsonObject> catchUps(long schedule, Instant from) throws Exception {
        HttpResponse<String> reply = owner.api("GET", "/apps/guestbook/runs?limit=200", null);
        if (reply.statusCode() != 200) {
            return List.of();
        }
        return Person.json(reply.body()).getJsonArray("runs").getValuesAs(JsonObject.class).stream()
                .filter(r -> r.get("schedule") instanceof JsonNumber n && n.longValue() == schedule)
                .filter(r -> "scheduler.catchup".equals(r.getString("actor", "")))
                .filter(r -> !Instant.parse(r.getString("tick")).isBefore(from))
                .toList();
    }

    static void sleepUntil(Instant when) throws InterruptedException {
        long ms = Duration.between(Instant.now(), when).toMillis();
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }

    static void assertAccess(HttpResponse<String> response, int status, String source) {
        assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("X-Qaldy-Access")).as("X-Qaldy-Access").hasValue(source);
    }
}
