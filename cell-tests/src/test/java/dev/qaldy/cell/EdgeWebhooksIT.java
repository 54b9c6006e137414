package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.qaldy.contract.hooks.HookSignature;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 17 on a real cell: with the control plane SIGKILLed, the gate checks webhook deliveries
 * itself with what it learned of the hook (pushed when it was made), queues the right ones durably
 * (202 {@code queued}), refuses the badly signed (401) and answers a hook it never learned 503; a
 * gate SIGKILLed after its 202s and started again, still without the API, keeps them; once the API
 * is back each accepted delivery runs exactly once, in order, as {@code webhook.edge} with an audit
 * line saying when it was received. With two gates, the same delivery queued on both runs once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EdgeWebhooksIT {

    static final String APP = "board";
    static final int GOOD = 12;
    /** The gate's queue holds at most GOOD deliveries of one app, so the next one finds it full. */
    static final String GATE_OPTS = "-Dqaldy.gate.webhook-queue-max-per-app=" + GOOD;
    static Cell cell;
    static Person owner;
    static Person stranger;
    /** The hook's first secret; rolled in the first test, still accepted for an hour after. */
    static String secret;
    /** The hook's secret after the roll. */
    static String rolled;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("edgehooks", Map.of("QALDY_NO_SEED", "1", "QALDY_OPTS_GATE", GATE_OPTS), true, System.getProperty("qaldy.it.server", "payara"));
        owner = Person.signUp(cell, "owner@example.com");
        stranger = Person.signUp(cell, "stranger@example.com");
        owner.publish(APP, cell.root().resolve("examples/guestbook"));
        HttpResponse<String> hook = owner.api("POST", "/apps/" + APP + "/hooks", "{\"name\":\"ping\",\"job\":\"digest\"}");
        assertThat(hook.statusCode()).as(hook.body()).isEqualTo(201);
        secret = Person.json(hook.body()).getString("secret");
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void deliveries_accepted_while_the_api_is_down_survive_a_gate_crash_and_run_once_each_in_order() throws Exception {
        Path learned = cell.var().resolve("gate-hooks/hooks.json");
        assertThat(learned).as("pushed to the gate before the API answered the hook's creation").exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(learned))).isEqualTo("rw-------");

        // The owner rolls the secret; the previous one stays accepted for an hour, at the edge too.
        HttpResponse<String> roll = owner.api("POST", "/apps/" + APP + "/hooks/ping/roll-secret", "{\"keepPreviousForSeconds\":3600}");
        assertThat(roll.statusCode()).as(roll.body()).isEqualTo(200);
        rolled = Person.json(roll.body()).getString("secret");
        assertThat(rolled).isNotEqualTo(secret);
        assertThat(Person.json(roll.body()).getString("note")).startsWith("the previous secret is accepted until ");
        HttpResponse<String> listed = owner.api("GET", "/apps/" + APP + "/hooks", null);
        assertThat(listed.body()).doesNotContain(secret).doesNotContain(rolled).contains("\"previousSecretUntil\":\"20");

        cell.qaldy("stop", "control", "--kill");
        Map<String, String> ids = new LinkedHashMap<>();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 1; i <= GOOD; i++) {
            HttpResponse<String> queued = deliver("ping", note(i), "key-" + i, signer(i));
            statuses.add(queued.statusCode());
            assertThat(queued.statusCode()).as(queued.body()).isEqualTo(202);
            JsonObject answer = Person.json(queued.body());
            assertThat(answer.getBoolean("queued")).isTrue();
            ids.put("key-" + i, answer.getString("deliveryId"));
        }
        for (int i = 1; i <= 4; i++) { // a sender's retries: signed again, the same key
            HttpResponse<String> again = deliver("ping", note(i), "key-" + i, signer(i));
            statuses.add(again.statusCode());
            assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
            assertThat(Person.json(again.body()).getString("deliveryId")).isEqualTo(ids.get("key-" + i));
        }
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> forged = deliver("ping", "{\"note\":\"forged " + i + "\"}", "forged-" + i, "not-the-secret");
            statuses.add(forged.statusCode());
            assertThat(forged.statusCode()).as(forged.body()).isEqualTo(401);
            assertThat(forged.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
            assertThat(forged.body()).contains("the signature is wrong");
        }
        HttpResponse<String> unknown = deliver("nope", "{\"note\":\"probe\"}", "probe", secret);
        statuses.add(unknown.statusCode());
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(503);
        assertThat(unknown.headers().firstValue("Retry-After")).isPresent();
        assertThat(statuses).hasSize(20);
        HttpResponse<String> full = deliver("ping", "{\"note\":\"one too many\"}", "key-full", rolled);
        assertThat(full.statusCode()).as("the queue holds " + GOOD + " of this app's deliveries: " + full.body()).isEqualTo(503);
        assertThat(full.headers().firstValue("Retry-After")).isPresent();
        assertThat(full.body()).contains("queue-full");

        // What waits at this gate, as the owner's console reads it during the outage; nobody else sees it.
        JsonObject waiting = Person.json(edgeWaiting(owner.token()).body());
        assertThat(waiting.getJsonArray("hooks").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("hook")).isEqualTo("ping");
            assertThat(w.getInt("waiting")).isEqualTo(GOOD);
            assertThat(Instant.parse(w.getString("oldestReceivedAt"))).isBefore(Instant.now());
        });
        HttpResponse<String> strangers = edgeWaiting(stranger.token());
        assertThat(strangers.statusCode()).isEqualTo(200);
        assertThat(Person.json(strangers.body()).getJsonArray("hooks")).as("another person").isEmpty();
        assertThat(edgeWaiting(null).statusCode()).as("not signed in").isEqualTo(401);

        long killed = cell.pid("gate");
        cell.signal("gate", "KILL");
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(killed).map(p -> !p.isAlive()).orElse(true));
        Cell.Run start = cell.run(Map.of("QALDY_READY_TIMEOUT_S", "5"), Duration.ofMinutes(5), "start", "gate");
        assertThat(start.exit()).as(start.output()).isIn(0, 3);
        await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() ->
                cell.send(cell.request("127.0.0.1:" + cell.port("gate"), "/health/ready").timeout(Duration.ofSeconds(3)).GET().build())
                        .statusCode() == 200);
        HttpResponse<String> afterRestart = deliver("ping", note(1), "key-1", signer(1));
        assertThat(afterRestart.statusCode()).as("still queued after the crash: " + afterRestart.body()).isEqualTo(202);
        assertThat(Person.json(afterRestart.body()).getString("deliveryId")).isEqualTo(ids.get("key-1"));

        cell.qaldy("start", "control");
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> edgeRuns().size() >= GOOD && edgeRuns().stream()
                        .allMatch(r -> r.getString("state").equals("succeeded") || r.getString("state").equals("failed")));
        List<JsonObject> runs = edgeRuns();
        assertThat(runs).hasSize(GOOD);
        assertThat(runs).extracting(r -> r.getString("state")).containsOnly("succeeded");
        assertThat(runs).extracting(r -> r.getString("actor")).containsOnly("webhook.edge");
        List<String> notes = runs.stream().sorted(Comparator.comparingLong(r -> r.getJsonNumber("id").longValue()))
                .map(r -> r.getJsonArray("log").getValuesAs(JsonString::getString).stream().filter(l -> l.startsWith("webhook note: "))
                        .findFirst().orElse("?")).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= GOOD; i++) {
            expected.add("webhook note: edge " + i);
        }
        assertThat(notes).as("each once, in order of receipt").containsExactlyElementsOf(expected);
        List<JsonObject> audit = Person.json(owner.api("GET", "/audit?limit=200", null).body()).getJsonArray("entries")
                .getValuesAs(JsonObject.class);
        assertThat(audit).filteredOn(e -> e.getString("actor").equals("webhook.edge")).hasSize(GOOD)
                .allMatch(e -> e.getString("target").contains("queued at the edge, received 20"));

        HttpResponse<String> retriedLater = deliver("ping", note(2), "key-2", signer(2));
        assertThat(retriedLater.statusCode()).as(retriedLater.body()).isEqualTo(202);
        assertThat(Person.json(retriedLater.body()).getString("deliveryId")).as("the API knows the edge's id").isEqualTo(ids.get("key-2"));
        assertThat(edgeRuns()).as("a retry after the hand-over runs nothing more").hasSize(GOOD);
        assertThat(Person.json(edgeWaiting(owner.token()).body()).getJsonArray("hooks")).as("nothing waits once handed over").isEmpty();
        assertThat(Files.readString(cell.var().resolve("log/gate.log"))).doesNotContain(secret).doesNotContain(rolled);

        // With the API up: the rolled-over secret is accepted until its end; a roll that keeps nothing stops the others at once.
        HttpResponse<String> live = deliver("ping", "{\"note\":\"live old\"}", "key-live-old", secret);
        assertThat(live.statusCode()).as(live.body()).isEqualTo(202);
        assertThat(live.body()).doesNotContain("\"queued\"");
        HttpResponse<String> tooLong = owner.api("POST", "/apps/" + APP + "/hooks/ping/roll-secret", "{\"keepPreviousForSeconds\":604801}");
        assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(400);
        assertThat(tooLong.body()).contains("7 days");
        HttpResponse<String> stopNow = owner.api("POST", "/apps/" + APP + "/hooks/ping/roll-secret", "{\"keepPreviousForSeconds\":0}");
        assertThat(stopNow.statusCode()).as(stopNow.body()).isEqualTo(200);
        String third = Person.json(stopNow.body()).getString("secret");
        for (String stopped : List.of(secret, rolled)) {
            HttpResponse<String> refused = deliver("ping", "{\"note\":\"stopped\"}", "key-stopped", stopped);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
        }
        secret = third;
        rolled = third;
        assertThat(deliver("ping", "{\"note\":\"third\"}", "key-third", third).statusCode()).isEqualTo(202);
    }

    /** Odd deliveries are signed with the secret rolled over (still accepted), even ones with the new secret. */
    static String signer(int i) {
        return i % 2 == 1 ? secret : rolled;
    }

    static HttpResponse<String> edgeWaiting(String token) throws Exception {
        HttpRequest.Builder request = cell.request(cell.publicHost(), "/console/edge-hooks.json?app=" + APP).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return cell.send(request.GET().build());
    }

    @Test
    @Order(2)
    void the_same_delivery_queued_on_two_gates_runs_once() throws Exception {
        assertThat(cell.var().resolve("gate2-hooks/hooks.json")).as("pushed to the second gate too").exists();
        cell.qaldy("stop", "control", "--kill");
        long t = Instant.now().getEpochSecond();
        for (int i = 1; i <= 6; i++) {
            String body = "{\"note\":\"two " + i + "\"}";
            List<String> gates = i <= 4 ? List.of("gate", "gate2") : List.of("gate2"); // 1-4 on both gates, 5-6 on the second only
            for (String gate : gates) {
                HttpResponse<String> queued = deliver(gate, "ping", body, "two-key-" + i, secret, t);
                assertThat(queued.statusCode()).as(gate + ": " + queued.body()).isEqualTo(202);
                assertThat(Person.json(queued.body()).getBoolean("queued")).isTrue();
            }
        }
        cell.qaldy("start", "control");
        // Drained when a new delivery through each gate is passed on (not queued behind this hook's waiting ones).
        for (String gate : List.of("gate", "gate2")) {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() -> {
                HttpResponse<String> probe = deliver(gate, "ping", "{\"note\":\"drained " + gate + "\"}", "drained-" + gate, secret,
                        Instant.now().getEpochSecond());
                return probe.statusCode() == 202 && !probe.body().contains("\"queued\"");
            });
        }
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() -> notesOf(edgeRuns(), "two ")
                .size() >= 6);
        List<String> notes = notesOf(edgeRuns(), "two ");
        assertThat(notes).as("each once, whichever gate handed it over first")
                .containsExactlyInAnyOrder("two 1", "two 2", "two 3", "two 4", "two 5", "two 6");
    }

    /**
     * A delivery kept at the gate past {@code qaldy.gate.webhook-queue-max-age} is never run: handed over
     * as expired, the control plane writes an audit line and no run.
     */
    @Test
    @Order(3)
    void a_delivery_kept_past_the_longest_wait_is_dropped_with_an_audit_line_and_never_runs() throws Exception {
        Duration maxAge = Duration.ofSeconds(3);
        cell.qaldy("stop", "gate");
        Cell.Run start = cell.run(Map.of("QALDY_OPTS_GATE", GATE_OPTS + " -Dqaldy.gate.webhook-queue-max-age=" + maxAge),
                Duration.ofMinutes(5), "start", "gate");
        assertThat(start.exit()).as(start.output()).isZero();
        cell.qaldy("stop", "control", "--kill");
        HttpResponse<String> queued = deliver("ping", "{\"note\":\"too old\"}", "key-too-old", rolled);
        assertThat(queued.statusCode()).as(queued.body()).isEqualTo(202);
        String deliveryId = Person.json(queued.body()).getString("deliveryId");
        Instant receivedBy = Instant.now();
        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(receivedBy.plus(maxAge).plusSeconds(1)));
        cell.qaldy("start", "control");

        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() ->
                Person.json(owner.api("GET", "/audit?limit=200", null).body()).getJsonArray("entries").getValuesAs(JsonObject.class)
                        .stream().anyMatch(e -> e.getString("action").equals("webhook.edge-expired") && e.getString("target").contains(deliveryId)));
        assertThat(Person.json(edgeWaiting(owner.token()).body()).getJsonArray("hooks")).as("dropped from the queue").isEmpty();
        assertThat(notesOf(edgeRuns(), "too old")).as("never run").isEmpty();
        HttpResponse<String> deliveries = owner.api("GET", "/apps/" + APP + "/hooks/ping/deliveries?limit=100", null);
        assertThat(deliveries.body()).as("never recorded as a delivery").doesNotContain(deliveryId);
    }

    static List<String> notesOf(List<JsonObject> runs, String prefix) {
        return runs.stream().flatMap(r -> r.getJsonArray("log").getValuesAs(JsonString::getString).stream())
                .filter(l -> l.startsWith("webhook note: " + prefix)).map(l -> l.substring("webhook note: ".length())).toList();
    }

    static String note(int i) {
        return "{\"note\":\"edge " + i + "\"}";
    }

    static List<JsonObject> edgeRuns() throws Exception {
        HttpResponse<String> reply = owner.api("GET", "/apps/" + APP + "/runs?limit=200", null);
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return Person.json(reply.body()).getJsonArray("runs").getValuesAs(JsonObject.class).stream()
                .filter(r -> "ping".equals(r.getString("hook", null))).toList();
    }

    /** Through the first gate, signed now with {@code signingSecret} (the hook's, or not), as a sender signs each attempt. */
    static HttpResponse<String> deliver(String hook, String body, String idempotencyKey, String signingSecret) throws Exception {
        return deliver("gate", hook, body, idempotencyKey, signingSecret, Instant.now().getEpochSecond());
    }

    /** Through {@code gate}, signed at {@code t} (unix seconds). */
    static HttpResponse<String> deliver(String gate, String hook, String body, String idempotencyKey, String signingSecret, long t)
            throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return cell.send(cell.request(gate, cell.publicHost(), "/hooks/" + APP + "/" + hook)
                .header("Content-Type", "application/json")
                .header("Qaldy-Signature", HookSignature.sign(signingSecret, t, bytes))
                .header("Idempotency-Key", idempotencyKey)
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build());
    }
}
