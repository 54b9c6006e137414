package dev.qaldy.control.it;

import static dev.qaldy.control.it.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.it.Api.Reply;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Schedules, webhooks and the data API of the control plane on a real Payara Micro. The runtime
 * host is a tiny fake HTTP server started by this test ({@code qaldy.runtime.url} points at it),
 * which records what the dispatcher sends and answers like the runtime's job endpoint. The
 * scheduler ticks every second here; one schedule is added first and checked last, so its first
 * minute tick passes while the other tests run.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchedulesWebhooksDataIT {

    static final String PASSWORD = "correct horse battery";
    static final AtomicInteger COUNTER = new AtomicInteger();
    static final String RUN = UUID.randomUUID().toString().substring(0, 6);
    static final int MAX_RECORDS = 5;

    /** One request the fake runtime host received. */
    record Seen(String path, Map<String, String> headers, JsonObject body) {
    }

    static final List<Seen> AT_RUNTIME = new CopyOnWriteArrayList<>();
    static HttpServer fakeRuntime;
    static Person owner;
    static String everyMinuteApp;
    static Instant everyMinuteAddedAt;

    @ArquillianResource
    URL deployed;

    Api api;

    record Person(long id, String email, String token) {
    }

    @Deployment(testable = false)
    static WebArchive deployment() throws IOException {
        fakeRuntime = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 20);
        fakeRuntime.createContext("/", SchedulesWebhooksDataIT::runtime);
        fakeRuntime.setExecutor(Executors.newCachedThreadPool());
        fakeRuntime.start();
        String config = "config_ordinal=500\n"
                + "qaldy.runtime.url=http://127.0.0.1:" + fakeRuntime.getAddress().getPort() + "\n"
                + "qaldy.scheduler.tick-interval=PT1S\n"
                + "qaldy.data.max-records-per-app=" + MAX_RECORDS + "\n"
                + "qaldy.webhooks.max-body-bytes=262144\n";
        return TestCell.prepareAndDeploy().addAsResource(new StringAsset(config), "META-INF/microprofile-config.properties");
    }

    @AfterAll
    static void stopFake() {
        if (fakeRuntime != null) {
            fakeRuntime.stop(0);
        }
    }

    /** The fake job endpoint: job "fails" fails, job "gone" answers 503, every other succeeds. */
    static void runtime(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        JsonObject json = body.length == 0 ? null : Json.createReader(new ByteArrayInputStream(body)).readObject();
        Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
        String path = exchange.getRequestURI().getPath();
        AT_RUNTIME.add(new Seen(path, headers, json));
        String job = path.substring(path.lastIndexOf('/') + 1);
        int status = 200;
        String answer;
        if (job.equals("gone")) {
            status = 503;
            answer = "{\"type\":\"urn:qaldy:problem:x\",\"title\":\"Unavailable\",\"status\":503,\"detail\":\"no code for this app\"}";
        } else if (job.equals("fails")) {
            answer = "{\"outcome\":\"failed\",\"log\":[\"about to fail\"],\"error\":\"uncaught Error: broken\"}";
        } else {
            answer = Json.createObjectBuilder().add("outcome", "succeeded")
                    .add("log", Json.createArrayBuilder().add("fake ran " + job + " for " + (json == null ? "?" : json.getString("actor", "?"))))
                    .build().toString();
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @BeforeEach
    void client() throws URISyntaxException {
        api = new Api(deployed.toURI());
        if (owner == null) {
            owner = signUpAndIn("owner");
        }
    }

    static String unique(String prefix) {
        return prefix + "-" + RUN + "-" + COUNTER.incrementAndGet();
    }

    Person signUpAndIn(String name) {
        String email = unique(name) + "@example.com";
        Reply created = api.post("api/v1/people", json("email", email, "password", PASSWORD), null);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        Reply session = api.post("api/v1/sessions", json("email", email, "password", PASSWORD), null);
        assertThat(session.status()).as(session.toString()).isEqualTo(201);
        return new Person(created.json().getJsonNumber("id").longValue(), email, session.json().getString("token"));
    }

    String createApp(Person person) {
        String name = unique("app");
        Reply created = api.post("api/v1/apps", json("name", name), person.token());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return name;
    }

    static void assertProblem(Reply reply, int status, String detailPart) {
        ControlPlaneIT.assertProblem(reply, status, detailPart);
    }

    List<JsonObject> runs(String app) {
        Reply reply = api.get("api/v1/apps/" + app + "/runs?limit=200", owner.token());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().getJsonArray("runs").getValuesAs(JsonObject.class);
    }

    List<JsonObject> audit(Person person) {
        return api.get("api/v1/audit?limit=200", person.token()).json().getJsonArray("entries").getValuesAs(JsonObject.class);
    }

    /** {@code Qaldy-Signature} as a sender computes it now. */
    static String sign(String secret, byte[] body) throws Exception {
        return sign(secret, Instant.now().getEpochSecond(), body);
    }

    /** {@code t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>">}, computed here, not with the code under test. */
    static String sign(String secret, long t, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
        return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    Reply deliver(String app, String hook, byte[] body, String signature, String key) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        if (signature != null) {
            headers.put("Qaldy-Signature", signature);
        }
        if (key != null) {
            headers.put("Idempotency-Key", key);
        }
        return api.send("api/v1/hooks/" + app + "/" + hook, headers, "POST", BodyPublishers.ofByteArray(body));
    }

    // ---- schedules

    @Test
    @Order(1)
    void an_every_minute_schedule_is_added_first_and_checked_last() {
        everyMinuteApp = createApp(owner);
        everyMinuteAddedAt = Instant.now();
        Reply added = api.post("api/v1/apps/" + everyMinuteApp + "/schedules",
                json("cron", "* * * * *", "job", "digest"), owner.token());
        assertThat(added.status()).as(added.toString()).isEqualTo(201);
        assertThat(added.json().getString("zone")).isEqualTo("UTC");
        assertThat(added.json().get("lastFiredTick")).isEqualTo(JsonValue.NULL);
        assertThat(Instant.parse(added.json().getString("nextTick"))).isAfter(everyMinuteAddedAt.minusSeconds(1));
    }

    @Test
    @Order(2)
    void schedules_are_the_owners_with_clear_400s_for_bad_cron_zone_and_job() {
        String app = createApp(owner);
        String path = "api/v1/apps/" + app + "/schedules";
        assertProblem(api.post(path, json("cron", "61 * * * *", "job", "digest"), owner.token()), 400, "not a standard 5-field cron");
        assertProblem(api.post(path, json("cron", "* * * *", "job", "digest"), owner.token()), 400, "not a standard 5-field cron");
        assertProblem(api.post(path, json("cron", "0 * * * *", "zone", "Mars/Olympus", "job", "digest"), owner.token()), 400,
                "is not a time zone");
        assertProblem(api.post(path, json("cron", "0 * * * *", "job", "no spaces"), owner.token()), 400, "job handler");
        assertProblem(api.post(path, json("job", "digest"), owner.token()), 400, "\"cron\" is required");

        Reply added = api.post(path, json("cron", "30 2 * * *", "zone", "Europe/Berlin", "job", "digest"), owner.token());
        assertThat(added.status()).as(added.toString()).isEqualTo(201);
        JsonObject schedule = added.json();
        assertThat(schedule.getString("cron")).isEqualTo("30 2 * * *");
        assertThat(schedule.getString("zone")).isEqualTo("Europe/Berlin");
        assertThat(schedule.getString("job")).isEqualTo("digest");
        long id = schedule.getJsonNumber("id").longValue();
        assertThat(added.header("Location")).endsWith("/schedules/" + id);
        assertThat(api.get(path, owner.token()).array()).hasSize(1);

        Person viewer = signUpAndIn("viewer");
        assertThat(api.post("api/v1/apps/" + app + "/shares", json("email", viewer.email()), owner.token()).status()).isEqualTo(201);
        assertProblem(api.get(path, viewer.token()), 403, "only the owner");
        assertProblem(api.delete(path + "/" + id, viewer.token()), 403, "only the owner");
        assertProblem(api.get(path, signUpAndIn("stranger").token()), 404, "no app named");

        assertThat(api.delete(path + "/" + id, owner.token()).status()).isEqualTo(204);
        assertProblem(api.delete(path + "/" + id, owner.token()), 404, "no schedule");
        assertThat(api.get(path, owner.token()).array()).isEmpty();
        assertThat(audit(owner)).filteredOn(e -> app.equals(e.getString("app", null)))
                .extracting(e -> e.getString("action")).contains("schedule.create", "schedule.delete");
    }

    @Test
    @Order(2)
    void a_schedule_or_hook_naming_a_job_the_live_version_does_not_register_is_refused_listing_the_jobs_it_does() {
        String app = createApp(owner);
        String path = "api/v1/apps/" + app + "/schedules";
        Reply beforeAnyVersion = api.post(path, json("cron", "0 * * * *", "job", "digest"), owner.token());
        assertThat(beforeAnyVersion.status()).as(beforeAnyVersion.toString()).isEqualTo(201);
        assertThat(beforeAnyVersion.json().getString("note")).contains("has no live version yet")
                .contains("\"digest\" could not be checked");

        byte[] zip = Zips.of(Map.of("qaldy.json", "{\"name\":\"" + app + "\",\"kind\":\"app\"}",
                "public/index.html", "<h1>jobs</h1>",
                "server.js", "app.job('report', function (ctx) {}); app.job('digest', function (ctx) { console.log(ctx.app); });"));
        Reply queued = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(zip), owner.token());
        assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
        JsonObject[] build = new JsonObject[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            build[0] = api.get("api/v1/apps/" + app + "/builds/1", owner.token()).json();
            return build[0].getString("status").equals("succeeded") || build[0].getString("status").equals("failed");
        });
        assertThat(build[0].getString("status")).as(build[0].toString()).isEqualTo("succeeded");
        assertThat(build[0].getJsonArray("log").getValuesAs(JsonString::getString)).contains("jobs (app.job): digest, report");
        assertThat(api.put("api/v1/apps/" + app + "/live", json("version", 1), owner.token()).status()).isEqualTo(200);

        assertProblem(api.post(path, json("cron", "0 * * * *", "job", "digset"), owner.token()), 400,
                "the live version 1 of " + app + " has no job handler named \"digset\"; its server.js registers these jobs: digest, report");
        assertProblem(api.post("api/v1/apps/" + app + "/hooks", json("name", "ci", "job", "nope"), owner.token()), 400,
                "registers these jobs: digest, report");
        assertThat(api.get(path, owner.token()).array()).as("nothing was added for the refused job").hasSize(1);
        Reply known = api.post(path, json("cron", "0 * * * *", "job", "report"), owner.token());
        assertThat(known.status()).as(known.toString()).isEqualTo(201);
        assertThat(known.json().get("note")).isIn(null, JsonValue.NULL);
        Reply hook = api.post("api/v1/apps/" + app + "/hooks", json("name", "ci", "job", "digest"), owner.token());
        assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
        assertThat(hook.json().get("note")).isIn(null, JsonValue.NULL);
    }

    // ---- webhooks

    @Test
    @Order(3)
    void a_signed_delivery_is_recorded_queues_a_run_and_the_dispatcher_sends_it_to_the_runtime_host() throws Exception {
        String app = createApp(owner);
        Reply created = api.post("api/v1/apps/" + app + "/hooks", json("name", "deploy", "job", "digest"), owner.token());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String secret = created.json().getString("secret");
        assertThat(secret).hasSizeGreaterThanOrEqualTo(40);
        assertThat(created.json().getString("url")).isEqualTo("http://localhost:8080/hooks/" + app + "/deploy");
        Reply listed = api.get("api/v1/apps/" + app + "/hooks", owner.token());
        assertThat(listed.array()).hasSize(1);
        assertThat(listed.text()).doesNotContain(secret);
        assertProblem(api.post("api/v1/apps/" + app + "/hooks", json("name", "deploy", "job", "digest"), owner.token()), 409, "already has");
        assertProblem(api.post("api/v1/apps/" + app + "/hooks", json("name", "Deploy", "job", "digest"), owner.token()), 400, "hook name");

        byte[] body = "{\"note\":\"hello\"}".getBytes(StandardCharsets.UTF_8);
        Reply delivered = deliver(app, "deploy", body, sign(secret, body), null);
        assertThat(delivered.status()).as(delivered.toString()).isEqualTo(202);
        String deliveryId = delivered.json().getString("deliveryId");
        assertThat(deliveryId).isNotBlank();

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> runs(app).stream().anyMatch(r -> r.getString("state").equals("succeeded")));
        JsonObject run = runs(app).get(0);
        assertThat(run.getString("actor")).isEqualTo("webhook");
        assertThat(run.getString("hook")).isEqualTo("deploy");
        assertThat(run.get("schedule")).isEqualTo(JsonValue.NULL);
        assertThat(run.getJsonArray("log").getValuesAs(JsonString::getString)).containsExactly("fake ran digest for webhook");
        assertThat(run.getString("startedAt")).isNotBlank();
        assertThat(run.getString("finishedAt")).isNotBlank();

        Seen seen = AT_RUNTIME.stream().filter(s -> s.body() != null && s.body().getJsonNumber("runId").longValue()
                == run.getJsonNumber("id").longValue()).findFirst().orElseThrow();
        assertThat(seen.path()).isEqualTo("/.qaldy/jobs/digest");
        assertThat(seen.headers()).containsEntry("X-Qaldy-Service-Token", TestCell.credential(ServiceDirection.CONTROL_TO_RUNTIME))
                .containsEntry("X-Qaldy-App", app).containsEntry("X-Qaldy-Run", Long.toString(run.getJsonNumber("id").longValue()));
        // Issue 16: the job carries a data grant for its own app, with which the runtime host reaches that app's data only.
        String grant = seen.headers().get(DataGrants.HEADER);
        assertThat(grant).startsWith("v1.");
        String appData = "api/v1/internal/app-data/" + app + "/notes";
        Reply withGrant = api.send(appData, Map.of("X-Qaldy-Service-Token", TestCell.runtimeToken(), DataGrants.HEADER, grant),
                "GET", BodyPublishers.noBody());
        assertThat(withGrant.status()).as(withGrant.toString()).isEqualTo(200);
        String other = createApp(owner);
        assertProblem(api.send("api/v1/internal/app-data/" + other + "/notes", Map.of("X-Qaldy-Service-Token", TestCell.runtimeToken(),
                DataGrants.HEADER, grant), "GET", BodyPublishers.noBody()), 403, "for app " + other);
        assertProblem(api.send(appData, Map.of("X-Qaldy-Service-Token", TestCell.runtimeToken()), "GET", BodyPublishers.noBody()),
                403, DataGrants.HEADER);
        assertProblem(api.send(appData, Map.of("X-Qaldy-Service-Token", TestCell.serviceToken(), DataGrants.HEADER, grant),
                "GET", BodyPublishers.noBody()), 403, "gate's credential");
        assertThat(seen.body().getString("actor")).isEqualTo("webhook");
        assertThat(seen.body().getString("payload")).isEqualTo("{\"note\":\"hello\"}");
        assertThat(Instant.parse(seen.body().getString("tick"))).isBefore(Instant.now());
        assertThat(audit(owner)).filteredOn(e -> app.equals(e.getString("app", null)))
                .anyMatch(e -> e.getString("actor").equals("webhook") && e.getString("action").equals("run"))
                .anyMatch(e -> e.getString("action").equals("hook.create"));
    }

    @Test
    @Order(3)
    void the_owner_has_the_control_plane_send_a_signed_test_delivery_that_runs_the_job_and_is_listed() throws Exception {
        String app = createApp(owner);
        assertThat(api.post("api/v1/apps/" + app + "/hooks", json("name", "ping", "job", "digest"), owner.token()).status()).isEqualTo(201);
        String path = "api/v1/apps/" + app + "/hooks/ping";
        assertThat(api.get(path + "/deliveries", owner.token()).array()).as("none yet").isEmpty();

        Reply sent = api.post(path + "/test", "{}", owner.token());
        assertThat(sent.status()).as(sent.toString()).isEqualTo(202);
        String deliveryId = sent.json().getString("deliveryId");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> runs(app).stream().anyMatch(r -> r.getString("state").equals("succeeded")));
        JsonObject run = runs(app).get(0);
        assertThat(run.getString("actor")).isEqualTo("webhook");
        assertThat(run.getString("hook")).isEqualTo("ping");
        Seen seen = AT_RUNTIME.stream().filter(s -> s.body() != null && s.body().getJsonNumber("runId").longValue()
                == run.getJsonNumber("id").longValue()).findFirst().orElseThrow();
        JsonObject payload = Json.createReader(new java.io.StringReader(seen.body().getString("payload"))).readObject();
        assertThat(payload.getString("type")).isEqualTo("qaldy.test");
        assertThat(payload.getString("hook")).isEqualTo("ping");

        List<JsonObject> deliveries = api.get(path + "/deliveries", owner.token()).array().getValuesAs(JsonObject.class);
        assertThat(deliveries).hasSize(1);
        assertThat(deliveries.get(0).getString("deliveryId")).isEqualTo(deliveryId);
        assertThat(deliveries.get(0).getBoolean("test")).isTrue();
        assertThat(deliveries.get(0).getJsonNumber("runId").longValue()).isEqualTo(run.getJsonNumber("id").longValue());
        assertThat(deliveries.get(0).getString("runState")).isEqualTo("succeeded");

        assertProblem(api.post("api/v1/apps/" + app + "/hooks/nope/test", "{}", owner.token()), 404, "has no hook named nope");
        assertProblem(api.get("api/v1/apps/" + app + "/hooks/nope/deliveries", owner.token()), 404, "has no hook named nope");
        assertProblem(api.post(path + "/test", "{}", signUpAndIn("outsider").token()), 404, "no app named");
    }

    @Test
    @Order(4)
    void bad_signature_unknown_hook_oversize_and_idempotent_replays() throws Exception {
        String app = createApp(owner);
        String secret = api.post("api/v1/apps/" + app + "/hooks", json("name", "ci", "job", "digest"), owner.token())
                .json().getString("secret");
        byte[] body = "{\"build\":1}".getBytes(StandardCharsets.UTF_8);

        assertProblem(deliver(app, "ci", body, null, null), 401, "missing");
        assertProblem(deliver(app, "ci", body, sign("not the secret", body), null), 401, "wrong");
        assertProblem(deliver(app, "ci", body, "t=" + Instant.now().getEpochSecond() + ",v1=" + "0".repeat(64), null), 401, "wrong");
        assertProblem(deliver(app, "ci", body, "sha256=" + "0".repeat(64), null), 401, "malformed");
        assertProblem(deliver(app, "ci", body, null, null), 401, "missing");
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        Map<String, String> oldScheme = Map.of("Content-Type", "application/json",
                "X-Qaldy-Signature", "sha256=" + HexFormat.of().formatHex(mac.doFinal(body)));
        assertProblem(api.send("api/v1/hooks/" + app + "/ci", oldScheme, "POST", BodyPublishers.ofByteArray(body)), 401,
                "X-Qaldy-Signature header (sha256=…) is no longer accepted");
        long now = Instant.now().getEpochSecond();
        assertProblem(deliver(app, "ci", body, sign(secret, now - 600, body), "recorded-" + UUID.randomUUID()), 401,
                "signature timestamp too old");
        assertProblem(deliver(app, "ci", body, sign(secret, now + 600, body), null), 401, "signature timestamp too far in the future");
        // Issue 16: an unknown hook or app answers as a wrong signature does, so hook names cannot be enumerated.
        Reply wrong = deliver(app, "ci", body, sign("not the secret", body), null);
        for (Reply unknown : List.of(deliver(app, "nope", body, sign(secret, body), null),
                deliver("no-such-app-" + RUN, "ci", body, sign(secret, body), null))) {
            assertThat(unknown.status()).as(unknown.toString()).isEqualTo(401);
            for (String field : List.of("type", "title", "detail")) {
                assertThat(unknown.json().getString(field, null)).as("the same " + field + " as a wrong signature on a real hook")
                        .isEqualTo(wrong.json().getString(field, null));
            }
        }
        byte[] big = new byte[256 * 1024 + 1];
        assertProblem(deliver(app, "ci", big, sign(secret, big), null), 413, "262144 bytes");
        assertThat(runs(app)).isEmpty();

        String key = "delivery-" + UUID.randomUUID();
        String signed = sign(secret, body);
        Reply first = deliver(app, "ci", body, signed, key);
        assertThat(first.status()).as(first.toString()).isEqualTo(202);
        // Issue 16: the same signed delivery sent again (captured within the tolerance) with no key or another one is the same
        // delivery: the key is not signed, so dropping or changing it must not make a second run.
        for (String otherKey : new String[] {null, "another-" + UUID.randomUUID(), "yet-another-" + UUID.randomUUID()}) {
            Reply again = deliver(app, "ci", body, signed, otherKey);
            assertThat(again.status()).as(again.toString()).isEqualTo(202);
            assertThat(again.json().getString("deliveryId")).as("key " + otherKey).isEqualTo(first.json().getString("deliveryId"));
            assertThat(again.header("X-Qaldy-Replayed")).isEqualTo("true");
        }
        Reply replay = deliver(app, "ci", body, sign(secret, body), key);
        assertThat(replay.status()).as(replay.toString()).isEqualTo(202);
        assertThat(replay.json().getString("deliveryId")).isEqualTo(first.json().getString("deliveryId"));
        assertThat(replay.header("X-Qaldy-Replayed")).isEqualTo("true");
        byte[] other = "{\"build\":2}".getBytes(StandardCharsets.UTF_8);
        assertProblem(deliver(app, "ci", other, sign(secret, other), key), 409, "different body");
        Map<String, String> viaDeliveryHeader = Map.of("Content-Type", "application/json", "Qaldy-Signature", sign(secret, body),
                "X-Qaldy-Delivery", key);
        Reply sameKeyOtherHeader = api.send("api/v1/hooks/" + app + "/ci", viaDeliveryHeader, "POST", BodyPublishers.ofByteArray(body));
        assertThat(sameKeyOtherHeader.json().getString("deliveryId")).isEqualTo(first.json().getString("deliveryId"));

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> runs(app).stream().allMatch(r -> r.getString("state").equals("succeeded")) && !runs(app).isEmpty());
        Thread.sleep(1500); // a tick or two of the dispatcher: still one run
        assertThat(runs(app)).as("a replayed delivery is not run twice").hasSize(1);

        assertThat(api.delete("api/v1/apps/" + app + "/hooks/ci", owner.token()).status()).isEqualTo(204);
        assertProblem(deliver(app, "ci", body, sign(secret, body), null), 401, "the signature is wrong");
    }

    @Test
    @Order(5)
    void a_failing_job_and_an_unavailable_runtime_fail_the_run_with_the_reason() throws Exception {
        String app = createApp(owner);
        String fails = api.post("api/v1/apps/" + app + "/hooks", json("name", "fails", "job", "fails"), owner.token()).json().getString("secret");
        String gone = api.post("api/v1/apps/" + app + "/hooks", json("name", "gone", "job", "gone"), owner.token()).json().getString("secret");
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        assertThat(deliver(app, "fails", body, sign(fails, body), null).status()).isEqualTo(202);
        assertThat(deliver(app, "gone", body, sign(gone, body), null).status()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> runs(app).size() == 2 && runs(app).stream().allMatch(r -> r.getString("state").equals("failed")));
        assertThat(runs(app)).anySatisfy(r -> assertThat(r.getJsonArray("log").getValuesAs(JsonString::getString))
                .containsExactly("about to fail", "failed: uncaught Error: broken"));
        assertThat(runs(app)).anySatisfy(r -> assertThat(r.getJsonArray("log").getValuesAs(JsonString::getString))
                .containsExactly("the runtime host answered HTTP 503: no code for this app"));
    }

    // ---- data

    @Test
    @Order(6)
    void data_records_are_created_read_listed_in_pages_replaced_and_deleted_by_people_who_may_open_the_app() {
        String app = createApp(owner);
        String notes = "api/v1/apps/" + app + "/data/notes";
        Reply created = api.post(notes, "{\"text\":\"first\",\"n\":1}", owner.token());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        long id = created.json().getJsonNumber("id").longValue();
        assertThat(created.json().getJsonObject("data")).isEqualTo(Json.createObjectBuilder().add("text", "first").add("n", 1).build());
        assertThat(created.json().getString("collection")).isEqualTo("notes");
        assertThat(created.header("Location")).endsWith("/data/notes/" + id);
        assertThat(api.get(notes + "/" + id, owner.token()).json().getJsonObject("data").getString("text")).isEqualTo("first");

        Person viewer = signUpAndIn("reader");
        assertThat(api.post("api/v1/apps/" + app + "/shares", json("email", viewer.email()), owner.token()).status()).isEqualTo(201);
        assertThat(api.post(notes, "{\"text\":\"second\"}", viewer.token()).status()).isEqualTo(201);
        assertThat(api.post(notes, "{\"text\":\"third\"}", viewer.token()).status()).isEqualTo(201);
        Reply page1 = api.get(notes + "?limit=2", viewer.token());
        assertThat(page1.json().getJsonArray("records")).hasSize(2);
        long after = page1.json().getJsonNumber("nextAfter").longValue();
        Reply page2 = api.get(notes + "?limit=2&after=" + after, viewer.token());
        assertThat(page2.json().getJsonArray("records")).hasSize(1);
        assertThat(page2.json().get("nextAfter")).isEqualTo(JsonValue.NULL);
        assertThat(page2.json().getJsonArray("records").getJsonObject(0).getJsonObject("data").getString("text")).isEqualTo("third");
        Reply newest = api.get(notes + "?limit=2&order=newest", viewer.token());
        assertThat(newest.json().getJsonArray("records").getValuesAs(JsonObject.class))
                .extracting(r -> r.getJsonObject("data").getString("text")).containsExactly("third", "second");
        Reply older = api.get(notes + "?limit=2&order=newest&after=" + newest.json().getJsonNumber("nextAfter").longValue(),
                viewer.token());
        assertThat(older.json().getJsonArray("records").getValuesAs(JsonObject.class))
                .extracting(r -> r.getJsonObject("data").getString("text")).containsExactly("first");
        assertProblem(api.get(notes + "?order=random", viewer.token()), 400, "newest");

        Reply replaced = api.put(notes + "/" + id, "{\"text\":\"changed\"}", viewer.token());
        assertThat(replaced.status()).as(replaced.toString()).isEqualTo(200);
        assertThat(api.get(notes + "/" + id, owner.token()).json().getJsonObject("data").containsKey("n")).isFalse();
        assertThat(api.delete(notes + "/" + id, owner.token()).status()).isEqualTo(204);
        assertProblem(api.get(notes + "/" + id, owner.token()), 404, "no record");
        assertProblem(api.get("api/v1/apps/" + app + "/data/other/" + id, owner.token()), 404, "no record");

        Person stranger = signUpAndIn("stranger");
        assertProblem(api.get(notes, stranger.token()), 404, "that you can open");
        assertProblem(api.post(notes, "{\"x\":1}", stranger.token()), 404, "that you can open");
        assertProblem(api.get(notes, null), 401, "Bearer");
    }

    @Test
    @Order(7)
    void data_bounds_names_size_shape_page_and_count_per_app() {
        String app = createApp(owner);
        String base = "api/v1/apps/" + app + "/data/";
        assertProblem(api.post(base + "Notes", "{\"x\":1}", owner.token()), 400, "collection name");
        assertProblem(api.post(base + "notes", "[1,2]", owner.token()), 400, "JSON object");
        assertProblem(api.post(base + "notes", "{\"x\":", owner.token()), 400, "not valid JSON");
        assertProblem(api.post(base + "notes", "{\"x\":\"" + "y".repeat(16 * 1024) + "\"}", owner.token()), 413, "16384 bytes");
        assertProblem(api.get(base + "notes?limit=101", owner.token()), 400, "limit");
        for (int i = 0; i < MAX_RECORDS; i++) {
            assertThat(api.post(base + (i % 2 == 0 ? "a" : "b"), "{\"i\":" + i + "}", owner.token()).status()).isEqualTo(201);
        }
        assertProblem(api.post(base + "c", "{\"i\":99}", owner.token()), 409, "the most an app may keep");
    }

    @Test
    @Order(8)
    void the_internal_data_endpoint_is_for_the_gate_only_and_checks_the_person_again() {
        String app = createApp(owner);
        String path = "api/v1/internal/data/" + app + "/notes";
        assertProblem(api.internal("GET", path, null, null), 401, "X-Qaldy-Service-Token");
        Reply noPerson = api.internal("GET", path, null, TestCell.serviceToken());
        assertProblem(noPerson, 400, "X-Qaldy-Person-Id");
        // Issue 16: the runtime host, which runs tenants' code, cannot name a person to the data API.
        assertProblem(api.send(path, Map.of("X-Qaldy-Service-Token", TestCell.runtimeToken(), "X-Qaldy-Person-Id",
                Long.toString(owner.id())), "GET", BodyPublishers.noBody()), 403, "runtime's credential");
        Map<String, String> asOwner = Map.of("X-Qaldy-Service-Token", TestCell.serviceToken(), "X-Qaldy-Person-Id",
                Long.toString(owner.id()), "Content-Type", "application/json");
        Reply created = api.send(path, asOwner, "POST", BodyPublishers.ofString("{\"via\":\"gate\"}"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(api.send(path, asOwner, "GET", BodyPublishers.noBody()).json().getJsonArray("records")).hasSize(1);
        Person stranger = signUpAndIn("outsider");
        Map<String, String> asStranger = Map.of("X-Qaldy-Service-Token", TestCell.serviceToken(), "X-Qaldy-Person-Id",
                Long.toString(stranger.id()));
        assertProblem(api.send(path, asStranger, "GET", BodyPublishers.noBody()), 404, "that you can open");
    }

    @Test
    @Order(9)
    void deleting_an_app_deletes_its_schedules_hooks_runs_and_data() {
        String app = createApp(owner);
        assertThat(api.post("api/v1/apps/" + app + "/schedules", json("cron", "0 * * * *", "job", "digest"), owner.token()).status()).isEqualTo(201);
        assertThat(api.post("api/v1/apps/" + app + "/hooks", json("name", "h", "job", "digest"), owner.token()).status()).isEqualTo(201);
        assertThat(api.post("api/v1/apps/" + app + "/data/notes", "{\"x\":1}", owner.token()).status()).isEqualTo(201);
        assertThat(api.delete("api/v1/apps/" + app, owner.token()).status()).isEqualTo(204);
        assertThat(api.post("api/v1/apps", json("name", app), owner.token()).status()).isEqualTo(201);
        assertThat(api.get("api/v1/apps/" + app + "/schedules", owner.token()).array()).isEmpty();
        assertThat(api.get("api/v1/apps/" + app + "/hooks", owner.token()).array()).isEmpty();
        assertThat(api.get("api/v1/apps/" + app + "/data/notes", owner.token()).json().getJsonArray("records")).isEmpty();
    }

    @Test
    @Order(10)
    void the_gates_learn_each_hook_from_the_feed_and_what_they_queued_is_handed_over_and_run_once() throws Exception {
        String app = createApp(owner);
        String secret = api.post("api/v1/apps/" + app + "/hooks", json("name", "edge", "job", "digest"), owner.token())
                .json().getString("secret");
        Reply feed = api.internal("GET", "api/v1/internal/hooks?since=0&limit=1000", null, TestCell.serviceToken());
        assertThat(feed.status()).as(feed.toString()).isEqualTo(200);
        assertThat(feed.header("Cache-Control")).isEqualTo("no-store");
        JsonObject made = hookIn(feed, app);
        assertThat(made.getJsonArray("secrets").getString(0)).isEqualTo(secret);
        assertThat(api.internal("GET", "api/v1/internal/hooks?since=0", null, null).status()).as("the gates' credential only").isEqualTo(401);

        // signed 10 minutes ago, past the tolerance: the gate vouches for its check at receipt, which is not made again
        byte[] body = "{\"note\":\"edge\"}".getBytes(StandardCharsets.UTF_8);
        long t = Instant.now().getEpochSecond() - 600;
        long received = Instant.now().toEpochMilli();
        String signature = sign(secret, t, body);
        String id = UUID.randomUUID().toString();
        Reply first = handOver(app, "edge", body, signature, "edge-key", id, received, false);
        assertThat(first.status()).as(first.toString()).isEqualTo(202);
        assertThat(first.json().getString("deliveryId")).isEqualTo(id);
        assertThat(first.json().getBoolean("replayed")).isFalse();
        Reply fromAnotherGate = handOver(app, "edge", body, signature, null, UUID.randomUUID().toString(), received + 700, false);
        assertThat(fromAnotherGate.status()).as(fromAnotherGate.toString()).isEqualTo(202);
        assertThat(fromAnotherGate.json().getString("deliveryId")).as("the same signed delivery").isEqualTo(id);
        assertThat(fromAnotherGate.json().getBoolean("replayed")).isTrue();
        assertThat(runs(app)).filteredOn(r -> "edge".equals(r.getString("hook", null))).hasSize(1)
                .allMatch(r -> r.getString("actor").equals("webhook.edge"));
        assertThat(audit(owner)).filteredOn(e -> app.equals(e.getString("app", null)) && e.getString("actor").equals("webhook.edge"))
                .hasSize(1).allMatch(e -> e.getString("target").contains("queued at the edge, received "));

        byte[] other = "{\"note\":\"other\"}".getBytes(StandardCharsets.UTF_8);
        assertProblem(handOver(app, "edge", other, sign("not the secret", t, other), null, UUID.randomUUID().toString(), received, false),
                401, "not signed with a secret the hook had in force when it was received");
        assertProblem(handOver(app, "edge", other, sign(secret, t, other), null, UUID.randomUUID().toString(), 1_000, false),
                401, "made after the delivery was received");
        Reply noCredential = api.send("api/v1/internal/hook-deliveries/" + app + "/edge", Map.of("Qaldy-Signature", signature,
                "X-Qaldy-Delivery-Id", UUID.randomUUID().toString(), "X-Qaldy-Received-At", "1000"), "POST", BodyPublishers.ofByteArray(body));
        assertThat(noCredential.status()).isEqualTo(401);
        Reply expired = handOver(app, "edge", new byte[0], signature, null, UUID.randomUUID().toString(), received, true);
        assertThat(expired.status()).as(expired.toString()).isEqualTo(204);
        assertThat(audit(owner)).anyMatch(e -> app.equals(e.getString("app", null)) && e.getString("action").equals("webhook.edge-expired"));

        // Issue 17: a roll that keeps nothing stops the old secret for new deliveries, not for one the gate checked before it.
        long beforeRoll = Instant.now().toEpochMilli() - 1;
        Reply rolled = api.post("api/v1/apps/" + app + "/hooks/edge/roll-secret", "{\"keepPreviousForSeconds\":0}", owner.token());
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(200);
        assertThat(rolled.json().isNull("previousSecretUntil")).isTrue();
        assertThat(hookIn(api.internal("GET", "api/v1/internal/hooks?since=0&limit=1000", null, TestCell.serviceToken()), app)
                .getJsonArray("secrets")).as("the gates are told only the new secret").hasSize(1);
        byte[] early = "{\"note\":\"checked before the roll\"}".getBytes(StandardCharsets.UTF_8);
        Reply queuedBefore = handOver(app, "edge", early, sign(secret, t, early), null, UUID.randomUUID().toString(), beforeRoll, false);
        assertThat(queuedBefore.status()).as(queuedBefore.toString()).isEqualTo(202);
        Reply queuedAfter = handOver(app, "edge", early, sign(secret, t + 1, early), null, UUID.randomUUID().toString(),
                Instant.now().toEpochMilli(), false);
        assertProblem(queuedAfter, 401, "not signed with a secret the hook had in force when it was received");

        assertThat(api.delete("api/v1/apps/" + app + "/hooks/edge", owner.token()).status()).isEqualTo(204);
        JsonObject deleted = hookIn(api.internal("GET", "api/v1/internal/hooks?since=" + made.getJsonNumber("sequence").longValue(), null,
                TestCell.serviceToken()), app);
        assertThat(deleted.getBoolean("deleted")).isTrue();
        assertThat(deleted.containsKey("secrets")).isFalse();
        assertProblem(handOver(app, "edge", other, sign(secret, t, other), null, UUID.randomUUID().toString(), received, false), 410,
                "no hook named edge any more");
        assertThat(runs(app)).as("the first delivery's run and the one checked before the roll")
                .filteredOn(r -> "edge".equals(r.getString("hook", null))).hasSize(2);
    }

    static JsonObject hookIn(Reply feed, String app) {
        return feed.json().getJsonArray("hooks").getValuesAs(JsonObject.class).stream()
                .filter(h -> app.equals(h.getString("app")) && "edge".equals(h.getString("hook"))).reduce((a, b) -> b).orElseThrow();
    }

    Reply handOver(String app, String hook, byte[] body, String signature, String key, String deliveryId, long receivedAtMs,
            boolean expired) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("X-Qaldy-Service-Token", TestCell.serviceToken());
        headers.put("Qaldy-Signature", signature);
        headers.put("X-Qaldy-Delivery-Id", deliveryId);
        headers.put("X-Qaldy-Received-At", Long.toString(receivedAtMs));
        if (key != null) {
            headers.put("Idempotency-Key", key);
        }
        if (expired) {
            headers.put("X-Qaldy-Expired", "true");
        }
        return api.send("api/v1/internal/hook-deliveries/" + app + "/" + hook, headers, "POST", BodyPublishers.ofByteArray(body));
    }

    @Test
    @Order(99)
    void the_every_minute_schedule_fired_its_tick_once_as_an_ordinary_run_and_it_was_dispatched() {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> runs(everyMinuteApp).stream().anyMatch(r -> r.getString("state").equals("succeeded")));
        List<JsonObject> runs = runs(everyMinuteApp);
        JsonObject first = runs.get(runs.size() - 1);
        assertThat(first.getString("actor")).isEqualTo("scheduler");
        assertThat(first.getJsonNumber("schedule")).isNotNull();
        Instant tick = Instant.parse(first.getString("tick"));
        assertThat(tick.getEpochSecond() % 60).as("a minute tick").isZero();
        assertThat(tick).isAfter(everyMinuteAddedAt.minusSeconds(1));
        assertThat(runs).extracting(r -> r.getString("tick")).doesNotHaveDuplicates();
        assertThat(runs).noneMatch(r -> r.getString("actor").equals("scheduler.catchup"));
        JsonObject schedule = api.get("api/v1/apps/" + everyMinuteApp + "/schedules", owner.token()).array().getJsonObject(0);
        assertThat(Instant.parse(schedule.getString("lastFiredTick"))).isAfterOrEqualTo(tick);
        assertThat(audit(owner)).filteredOn(e -> everyMinuteApp.equals(e.getString("app", null)))
                .anyMatch(e -> e.getString("actor").equals("scheduler") && e.getString("action").equals("run")
                        && e.getString("target").contains("digest"));
        assertThat(AT_RUNTIME).anyMatch(s -> s.headers().get("X-Qaldy-App") != null
                && s.headers().get("X-Qaldy-App").equals(everyMinuteApp) && s.body().getString("actor").equals("scheduler"));
    }
}
