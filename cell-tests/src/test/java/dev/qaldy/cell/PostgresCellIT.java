package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 19: a cell whose database is a PostgreSQL cluster ({@code bin/qaldy up} with
 * {@code QALDY_DB=postgres}: initdb under the state folder, role and database qaldy, Flyway's
 * migrations), with a second control plane on the same database. The drill passes every row, both
 * passes (the API killed; the database stopped); two control planes starting together after an
 * outage give one catch-up per schedule; the database killed (an immediate shutdown, no checkpoint)
 * keeps what the API acknowledged, and hung (SIGSTOP of the postmaster and every backend) makes the
 * control plane say not ready within its bounds, never hang, and recover by itself. Durations
 * shortened as in {@link DrillIT} and {@link ScheduleWebhookDataIT}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresCellIT {

    static final String APP = "board";
    static final int PERIOD = 5;
    static Cell cell;
    static Person owner;

    @BeforeAll
    static void startCell() throws Exception {
        // DrillIT's cell: its catch-up window stays 6 h (the drill's outage is longer than ScheduleWebhookDataIT's 15 s).
        cell = Cell.upOnPostgresWithTwoControlPlanes("postgres", DrillIT.CELL);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void the_drill_passes_every_row_with_the_api_killed_and_with_postgresql_stopped() throws Exception {
        assertThat(cell.qaldy("status")).containsPattern("db\\s+\\d+\\s+\\d+\\s+ready\\s+postgres");
        Path out = cell.var().resolve("drill/postgres");
        Cell.Run run = cell.run(DrillIT.DRILL, Duration.ofMinutes(15), "drill", "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isZero();
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **PASS**").contains("## The API killed").contains("## The database stopped");
        // The drill leaves every component it found running ready again (control2 starts in the next test).
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            String status = cell.qaldy("status");
            for (String component : List.of("db", "control", "runtime", "gate")) {
                assertThat(status).as(status).containsPattern("(?m)^" + component + "\\s+\\d+\\s+\\d+\\s+ready\\s");
            }
        });
    }

    @Test
    @Order(2)
    void two_control_planes_starting_together_on_postgresql_give_one_catch_up() throws Exception {
        owner = Person.signUp(cell, "owner@example.com");
        owner.publish(APP, cell.root().resolve("examples/guestbook"));
        owner.openApp(APP);
        HttpResponse<String> added = owner.api("POST", "/apps/" + APP + "/schedules",
                "{\"cron\":\"*/" + PERIOD + " * * * * *\",\"job\":\"digest\"}");
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        long schedule = Person.json(added.body()).getJsonNumber("id").longValue();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> lastFired(schedule).isAfter(Instant.EPOCH));
        Instant lastBefore = lastFired(schedule);

        cell.qaldy("stop", "control");
        ScheduleWebhookDataIT.sleepUntil(ScheduleWebhookDataIT.boundariesAfter(Instant.now(), 2).plusSeconds(1));
        ExecutorService starters = Executors.newFixedThreadPool(2);
        try {
            Future<String> one = starters.submit(() -> cell.qaldy("start", "control"));
            Future<String> two = starters.submit(() -> cell.qaldy("start", "control2"));
            one.get(6, TimeUnit.MINUTES);
            two.get(6, TimeUnit.MINUTES);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                    .until(() -> runsOf(schedule).stream().anyMatch(r -> isCatchUpAfter(r, lastBefore)));
            Thread.sleep(10_000); // five more scheduler ticks on each control plane: still one
            List<JsonObject> after = runsOf(schedule).stream().filter(r -> Instant.parse(r.getString("tick")).isAfter(lastBefore)).toList();
            assertThat(after).extracting(r -> r.getString("tick")).as("no tick ran twice").doesNotHaveDuplicates();
            List<JsonObject> catchUps = new ArrayList<>(after.stream().filter(r -> isCatchUpAfter(r, lastBefore)).toList());
            catchUps.sort((a, b) -> a.getString("tick").compareTo(b.getString("tick")));
            assertThat(catchUps).as("the outage's catch-up, once: " + after).isNotEmpty();
            // A later catch-up may only make up a tick the first one's planning could not have seen.
            for (int i = 1; i < catchUps.size(); i++) {
                assertThat(Instant.parse(catchUps.get(i).getString("tick")))
                        .isAfter(Instant.parse(catchUps.get(0).getString("createdAt")));
            }
        } finally {
            starters.shutdownNow();
            cell.qaldy("stop", "control2");
        }
    }

    @Test
    @Order(3)
    void postgresql_killed_keeps_what_the_api_acknowledged_and_hung_it_makes_the_api_say_not_ready_not_hang() throws Exception {
        if (owner == null) {
            owner = Person.signUp(cell, "owner@example.com");
            owner.publish(APP, cell.root().resolve("examples/guestbook"));
            owner.openApp(APP);
        }
        List<String> acknowledged = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String name = "before-kill-" + i;
            HttpResponse<String> signed = owner.postJson(APP, "/api/sign", "{\"name\":\"" + name + "\",\"message\":\"kept\"}");
            assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
            acknowledged.add(name);
        }
        cell.qaldy("stop", "db", "--kill"); // PostgreSQL's immediate shutdown: no checkpoint, WAL replay at start
        HttpResponse<String> during = owner.api("GET", "/apps/" + APP + "/schedules", null);
        assertThat(during.statusCode()).as(during.body()).isEqualTo(503);
        cell.qaldy("start", "db");
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> control("/health/ready").statusCode() == 200);
        String entries = owner.api("GET", "/apps/" + APP + "/data/entries", null).body();
        for (String name : acknowledged) {
            assertThat(entries).as("acknowledged before the kill").contains(name);
        }

        cell.qaldy("signal", "db", "STOP");
        try {
            long asked = System.nanoTime();
            HttpResponse<String> ready = control("/health/ready");
            long tookMs = (System.nanoTime() - asked) / 1_000_000;
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
            assertThat(tookMs).as("the database's hang is bounded: connect 2 s, login 3 s, read 10 s").isLessThan(30_000);
        } finally {
            cell.qaldy("signal", "db", "CONT");
        }
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> control("/health/ready").statusCode() == 200);
        HttpResponse<String> signed = owner.postJson(APP, "/api/sign", "{\"name\":\"after-hang\",\"message\":\"back\"}");
        assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
    }

    // ---- helpers

    static HttpResponse<String> control(String path) throws Exception {
        return cell.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.port("control") + path))
                .timeout(Duration.ofSeconds(60)).GET().build());
    }

    static Instant lastFired(long id) throws Exception {
        HttpResponse<String> reply = owner.api("GET", "/apps/" + APP + "/schedules", null);
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        JsonObject found = jakarta.json.Json.createReader(new java.io.StringReader(reply.body())).readArray()
                .getValuesAs(JsonObject.class).stream().filter(s -> s.getJsonNumber("id").longValue() == id).findFirst().orElseThrow();
        return found.isNull("lastFiredTick") ? Instant.EPOCH : Instant.parse(found.getString("lastFiredTick"));
    }

    static List<JsonObject> runsOf(long schedule) throws Exception {
        HttpResponse<String> reply = owner.api("GET", "/apps/" + APP + "/runs?limit=200", null);
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return Person.json(reply.body()).getJsonArray("runs").getValuesAs(JsonObject.class).stream()
                .filter(r -> r.get("schedule") instanceof jakarta.json.JsonNumber n && n.longValue() == schedule).toList();
    }

    static boolean isCatchUpAfter(JsonObject run, Instant after) {
        return run.getString("actor").equals("scheduler.catchup") && Instant.parse(run.getString("tick")).isAfter(after);
    }
}
