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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * migrations), with a second control plane on the same database. The drill passes every row, in
 * all three passes (the API killed; the database stopped; the API cut off from the edge); two control planes starting together after an
 * outage give one catch-up per schedule; the database killed (an immediate shutdown, no checkpoint)
 * keeps what the API acknowledged, and hung (SIGSTOP of the postmaster and every backend) makes the
 * control plane say not ready within its bounds, never hang, and recover by itself. The cell is one of
 * many hosts ({@code bin/qaldy up --hosts}: each component in a network namespace of its own, two
 * gates), so the drill runs over the cell's network, and partitions cut links for real (packets lost,
 * no refusal): a gate cut off alone from the control plane (its runtime host still reaches it) never
 * lets a person in whom the API revoked meanwhile, and trusts no copy until healed, a control plane cut off from its database answers 503 without hanging and recovers by
 * itself, a runtime host cut off from the control plane serves the app. Durations shortened as in
 * {@link DrillIT} and {@link ScheduleWebhookDataIT}.
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
        cell = Cell.upAsManyHostsOnPostgres("postgres", DrillIT.CELL);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void the_drill_passes_every_row_with_the_api_killed_with_postgresql_stopped_and_with_the_api_cut_off() throws Exception {
        assertThat(cell.qaldy("status")).containsPattern("db\\s+\\d+\\s+\\d+\\s+ready\\s+postgres");
        Path out = cell.var().resolve("drill/postgres");
        Cell.Run run = cell.run(DrillIT.DRILL, Duration.ofMinutes(20), "drill", "--pass", "all", "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isZero();
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **PASS**").contains("## The API killed").contains("## The database stopped")
                .contains("## The API cut off").contains("healed at");
        assertThat(cell.qaldy("status")).as("the drill healed every link it cut").contains("partitions: none");
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
        ownerWithApp();
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

    @Test
    @Order(4)
    void every_component_is_a_host_of_its_own_on_the_cells_network() throws Exception {
        String status = cell.qaldy("status");
        Set<String> namespaces = new HashSet<>();
        for (String c : List.of("db", "control", "runtime", "gate", "gate2")) {
            assertThat(status).as(status).containsPattern("(?m)^" + c + "\\s+\\d+\\s+\\d+\\s+ready\\s+\\S+\\s+host 10\\.77\\.\\d+\\.\\d+$");
            namespaces.add(networkNamespace(cell.pid(c)));
        }
        assertThat(namespaces).as("one network namespace per component").hasSize(5)
                .doesNotContain(networkNamespace(ProcessHandle.current().pid()));
        ownerWithApp();
        assertThat(owner.get(APP, "/").statusCode()).as("the app through the gate's port on 127.0.0.1").isEqualTo(200);
    }

    @Test
    @Order(5)
    void a_gate_cut_off_alone_from_the_control_plane_never_lets_a_revoked_person_in() throws Exception {
        ownerWithApp();
        Person viewer = Person.signUp(cell, "viewer@example.com");
        Person newcomer = Person.signUp(cell, "newcomer@example.com");
        Person leaver = Person.signUp(cell, "leaver@example.com");
        assertThat(owner.api("POST", "/apps/" + APP + "/shares", "{\"email\":\"viewer@example.com\"}").statusCode()).isEqualTo(201);
        assertThat(owner.api("POST", "/apps/" + APP + "/shares", "{\"email\":\"leaver@example.com\"}").statusCode()).isEqualTo(201);
        for (String gate : List.of("gate", "gate2")) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> onGate(gate, viewer).statusCode() == 200 && onGate(gate, owner).statusCode() == 200
                            && onGate(gate, leaver).statusCode() == 200);
        }
        // The usual case (bench/fanout): the control plane's connection to gate2 closed as idle (30 s), so its
        // push must connect, and the connection attempt times out behind the partition. Before, the API took that
        // for a stopped gate, answered in 2 s without waiting for gate2, and gate2 served its fresh copy for seconds.
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(2))
                .until(() -> !controlConnectedTo("gate2"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> onGate("gate2", viewer).statusCode() == 200); // a fresh copy on gate2, just before the cut
        long gate2LogFrom = Files.size(cell.var().resolve("log/gate2.log"));
        cell.qaldy("partition", "gate2", "control");
        try {
            assertThat(cell.qaldy("status")).contains("gate2 -/-> control").contains("control -/-> gate2");
            HttpResponse<String> revoked = owner.api("DELETE", "/apps/" + APP + "/shares/viewer@example.com", null);
            assertThat(revoked.statusCode()).as("the API answers the revocation (gate2 not reached)").isEqualTo(204);
            // A sign-out whose push cannot reach gate2: the API answers it anyway (the gate that reaches it refuses at once).
            assertThat(leaver.api("DELETE", "/sessions/current", null).statusCode()).isEqualTo(204);
            assertThat(onGate("gate", leaver).statusCode()).as("signed out: no session on the gate the API reaches").isEqualTo(401);
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < until) {
                assertThat(onGate("gate2", viewer).statusCode()).as("gate2 missed the revocation: never 200").isNotEqualTo(200);
                assertThat(onGate("gate", viewer).statusCode()).as("the gate the API reaches denies at once").isEqualTo(403);
                assertThat(onGate("gate", owner).statusCode()).as("the other gate serves as always").isEqualTo(200);
                Thread.sleep(1_000);
            }
            assertThat(onGate("gate2", viewer).statusCode()).as("cut off alone: a calm 503").isEqualTo(503);
            assertThat(onGate("gate2", owner).statusCode()).as("cut off alone, gate2 trusts no copy: 503 for the owner too")
                    .isEqualTo(503);
            assertThat(onGate("gate2", newcomer).statusCode()).as("whom gate2 never saw: 503").isEqualTo(503);
            assertThat(logSince("gate2", gate2LogFrom)).contains("this gate alone is cut off");
        } finally {
            cell.qaldy("heal", "gate2", "control");
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> onGate("gate2", viewer).statusCode() == 403 && onGate("gate2", owner).statusCode() == 200);
        // The sign-out gate2 missed is read again once the control plane answers it (before: its token opened the app
        // on gate2 until gate2 restarted or the token expired, 12 h).
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> onGate("gate2", leaver).statusCode() == 401);
        assertThat(logSince("gate2", gate2LogFrom)).contains("sign-outs had not reached this gate by push");
    }

    @Test
    @Order(6)
    void a_control_plane_cut_off_from_its_database_answers_503_without_hanging_and_recovers_by_itself() throws Exception {
        ownerWithApp();
        cell.qaldy("partition", "control", "db");
        try {
            for (int i = 0; i < 3; i++) {
                long asked = System.nanoTime();
                HttpResponse<String> during = owner.api("GET", "/apps/" + APP + "/schedules", null);
                long tookMs = (System.nanoTime() - asked) / 1_000_000;
                assertThat(during.statusCode()).as(during.body()).isEqualTo(503);
                assertThat(tookMs).as("a lost database is bounded: connect 2 s, login 3 s, read 10 s").isLessThan(30_000);
            }
            assertThat(control("/health/ready").statusCode()).isEqualTo(503);
        } finally {
            cell.qaldy("heal", "control", "db");
        }
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> control("/health/ready").statusCode() == 200);
        HttpResponse<String> signed = owner.postJson(APP, "/api/sign", "{\"name\":\"after-partition\",\"message\":\"back\"}");
        assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
    }

    @Test
    @Order(7)
    void a_runtime_host_cut_off_from_the_control_plane_serves_the_app_from_memory_and_its_sealed_copy() throws Exception {
        ownerWithApp();
        assertThat(owner.get(APP, "/").statusCode()).isEqualTo(200);
        cell.qaldy("partition", "runtime", "control");
        try {
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < until) {
                HttpResponse<String> page = owner.get(APP, "/");
                assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
                Thread.sleep(1_000);
            }
        } finally {
            cell.qaldy("heal", "runtime", "control");
        }
    }

    // ---- helpers

    static void ownerWithApp() throws Exception {
        if (owner == null) {
            owner = Person.signUp(cell, "owner@example.com");
            owner.publish(APP, cell.root().resolve("examples/guestbook"));
            owner.openApp(APP);
        }
    }

    /** The app's page on one gate, for {@code person} by the API's token (an audience-less token as Bearer). */
    static HttpResponse<String> onGate(String gate, Person person) throws Exception {
        return cell.send(cell.request(gate, cell.appHost(APP), "/").header("Authorization", "Bearer " + person.token())
                .timeout(Duration.ofSeconds(60)).GET().build());
    }

    /** Whether the control plane holds an open connection to {@code gate}'s internal listener (seen from its own namespace). */
    static boolean controlConnectedTo(String gate) throws Exception {
        String net = Files.readString(cell.var().resolve("hosts.net")).trim();
        Process ss = new ProcessBuilder("ip", "netns", "exec", "qaldy-" + net + "-control", "ss", "-Htn", "state", "established",
                "dport", "=", ":" + cell.port(gate + Cell.INTERNAL)).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ss.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(ss.exitValue()).as(out).isZero();
        return !out.isBlank();
    }

    /** What {@code component}'s log got after byte {@code from}. */
    static String logSince(String component, long from) throws Exception {
        byte[] all = Files.readAllBytes(cell.var().resolve("log/" + component + ".log"));
        return new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The network namespace a process is in ("net:[inode]"). */
    static String networkNamespace(long pid) throws Exception {
        return Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/net")).toString();
    }

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
