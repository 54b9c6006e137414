package dev.qaldy.control.it;

import static dev.qaldy.control.it.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.live.LiveStatement;
import dev.qaldy.contract.live.LiveStatements;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import dev.qaldy.control.it.Api.Reply;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The control plane over HTTP, as the console, the gate and the runtime host use it, on a real
 * Payara Micro with an in-memory H2 data source created by the post-boot file.
 */
@ExtendWith(ArquillianExtension.class)
class ControlPlaneIT {

    static final String PASSWORD = "correct horse battery";
    static final AtomicInteger COUNTER = new AtomicInteger();
    static final String RUN = UUID.randomUUID().toString().substring(0, 6);

    @ArquillianResource
    URL deployed;

    Api api;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TestCell.prepareAndDeploy();
    }

    @BeforeEach
    void client() throws URISyntaxException {
        api = new Api(deployed.toURI());
    }

    /** A signed-up, signed-in person. */
    record Person(long id, String email, String token) {
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

    String createApp(Person owner) {
        String name = unique("app");
        Reply created = api.post("api/v1/apps", json("name", name), owner.token());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return name;
    }

    JsonObject awaitBuild(Person owner, String app, long version, String status) {
        JsonObject[] build = new JsonObject[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Reply reply = api.get("api/v1/apps/" + app + "/builds/" + version, owner.token());
            build[0] = reply.json();
            return !build[0].getString("status").equals("queued") && !build[0].getString("status").equals("running");
        });
        assertThat(build[0].getString("status")).as(build[0].toString()).isEqualTo(status);
        return build[0];
    }

    static void assertProblem(Reply reply, int status, String detailPart) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        JsonObject problem = reply.json();
        assertThat(problem.getInt("status")).isEqualTo(status);
        assertThat(problem.getString("type")).isNotBlank();
        assertThat(problem.getString("title")).isNotBlank();
        assertThat(problem.getString("detail")).containsIgnoringCase(detailPart); // details leave as sentences: a capital first
        assertThat(reply.text()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void sign_up_sign_in_who_am_i_and_sign_out() throws Exception {
        String email = unique("Ana") + "@Example.com";
        Reply created = api.post("api/v1/people", json("email", email, "password", PASSWORD), null);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().getString("email")).isEqualTo(email.toLowerCase());
        long id = created.json().getJsonNumber("id").longValue();
        assertThat(created.header("Location")).endsWith("/api/v1/people/" + id);

        assertProblem(api.post("api/v1/people", json("email", email.toLowerCase(), "password", PASSWORD), null), 409, "already exists");
        assertProblem(api.post("api/v1/people", json("email", "not-an-email", "password", PASSWORD), null), 400, "email");
        assertProblem(api.post("api/v1/people", json("email", unique("b") + "@example.com", "password", "short"), null), 400, "10 to 128");
        assertProblem(api.post("api/v1/people", json("email", unique("c") + "@example.com", "password", "Password123"), null), 400,
                "one of the most common ones");

        Reply signedIn = api.post("api/v1/sessions", json("email", email, "password", PASSWORD), null);
        assertThat(signedIn.status()).as(signedIn.toString()).isEqualTo(201);
        String token = signedIn.json().getString("token");
        Instant expiresAt = Instant.parse(signedIn.json().getString("expiresAt"));
        assertThat(expiresAt).isBetween(Instant.now().plus(Duration.ofHours(11)), Instant.now().plus(Duration.ofHours(13)));
        Session session = SessionTokens.verify(token, TestCell.publicKey(), Clock.systemUTC());
        assertThat(session.personId()).isEqualTo(id);
        assertThat(session.email()).isEqualTo(email.toLowerCase());

        Reply me = api.get("api/v1/people/me", token);
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().getJsonNumber("id").longValue()).isEqualTo(id);

        Reply wrongPassword = api.post("api/v1/sessions", json("email", email, "password", "not the password"), null);
        Reply unknownEmail = api.post("api/v1/sessions", json("email", unique("nobody") + "@example.com", "password", PASSWORD), null);
        assertProblem(wrongPassword, 401, "wrong email or password");
        assertProblem(unknownEmail, 401, "wrong email or password");
        assertThat(wrongPassword.json()).isEqualTo(unknownEmail.json());

        assertThat(api.delete("api/v1/sessions/current", token).status()).isEqualTo(204);
        assertProblem(api.get("api/v1/people/me", token), 401, "signed out");
    }

    @Test
    void forged_foreign_expired_and_missing_tokens_get_401() {
        Person ana = signUpAndIn("ana");
        String[] parts = ana.token().split("\\.");
        String forged = parts[0] + "." + parts[1].substring(0, parts[1].length() - 4) + "AAAA." + parts[2];
        Instant now = Instant.now();
        Session claims = new Session(ana.id(), ana.email(), "t-" + UUID.randomUUID(), now, now.plusSeconds(3600));
        String foreign = SessionTokens.sign(claims, CellKeys.signing(CellKeys.generate()));
        Session old = new Session(ana.id(), ana.email(), "t-" + UUID.randomUUID(), now.minusSeconds(7200), now.minusSeconds(3600));
        String expired = SessionTokens.sign(old, TestCell.privateKey());

        for (String bad : List.of(forged, foreign, expired, "garbage")) {
            assertProblem(api.get("api/v1/apps", bad), 401, "invalid or expired");
        }
        assertProblem(api.get("api/v1/apps", null), 401, "Authorization: Bearer");
        assertThat(api.get("api/v1/apps", ana.token()).status()).isEqualTo(200);
    }

    @Test
    void repeated_sign_in_failures_slow_down() {
        Person bob = signUpAndIn("bob");
        for (int i = 0; i < 5; i++) {
            assertProblem(api.post("api/v1/sessions", json("email", bob.email(), "password", "guess number " + i), null),
                    401, "wrong email or password");
        }
        Reply sixth = api.post("api/v1/sessions", json("email", bob.email(), "password", "guess number 6"), null);
        assertProblem(sixth, 429, "too many failed sign-ins");
        assertThat(Long.parseLong(sixth.header("Retry-After"))).isBetween(1L, 900L);
        assertProblem(api.post("api/v1/sessions", json("email", bob.email(), "password", PASSWORD), null), 429, "try again");

        // Someone else guessing at bob's email does not lock bob out: from his own address he signs in.
        assertThat(api.postFrom("203.0.113.7", "api/v1/sessions", json("email", bob.email(), "password", PASSWORD)).status())
                .as("the right password from another address").isEqualTo(201);
    }

    @Test
    void guessing_spread_over_many_addresses_is_slowed_down_for_the_email() {
        Person cleo = signUpAndIn("cleo");
        for (int address = 1; address <= 10; address++) {
            for (int i = 0; i < 5; i++) {
                assertThat(api.postFrom("198.51.100." + address, "api/v1/sessions",
                        json("email", cleo.email(), "password", "guess " + i)).status()).isEqualTo(401);
            }
        }
        // 50 failures from 10 addresses: the email waits, from any address.
        assertProblem(api.postFrom("198.51.100.99", "api/v1/sessions", json("email", cleo.email(), "password", PASSWORD)),
                429, "too many failed sign-ins");
    }

    @Test
    void app_names_are_dns_labels_and_apps_are_listed_with_their_role() {
        Person ana = signUpAndIn("ana");
        assertProblem(api.post("api/v1/apps", json("name", "my.app"), ana.token()), 400, "cannot be part of a web address. Choose a name");
        assertProblem(api.post("api/v1/apps", json("name", "MyApp"), ana.token()), 400, "lower-case letters");
        assertProblem(api.post("api/v1/apps", json("name", "api"), ana.token()), 400, "is reserved");
        assertProblem(api.post("api/v1/apps", json("name", "x".repeat(64)), ana.token()), 400, "1 to 63 characters");

        String name = unique("notes");
        Reply created = api.post("api/v1/apps", json("name", name), ana.token());
        assertThat(created.status()).isEqualTo(201);
        JsonObject app = created.json();
        assertThat(app.getString("name")).isEqualTo(name);
        assertThat(app.getString("owner")).isEqualTo(ana.email());
        assertThat(app.getString("role")).isEqualTo("owner");
        assertThat(app.get("liveVersion")).isEqualTo(JsonValue.NULL);
        assertThat(app.getString("url")).isEqualTo("http://" + name + ".localhost:8080/");

        Person carl = signUpAndIn("carl");
        assertProblem(api.post("api/v1/apps", json("name", name), carl.token()), 409, "is taken");
        assertThat(api.get("api/v1/apps", ana.token()).array()).extracting(v -> v.asJsonObject().getString("name")).contains(name);
        assertThat(api.get("api/v1/apps", carl.token()).array()).isEmpty();
        assertThat(api.get("api/v1/apps/" + name, ana.token()).json()).isEqualTo(app);
        assertProblem(api.get("api/v1/apps/" + name, carl.token()), 404, "no app named");
        assertProblem(api.delete("api/v1/apps/" + name, carl.token()), 404, "no app named");
    }

    @Test
    void an_upload_builds_is_promoted_and_served_sealed_to_the_runtime_host() throws Exception {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        Reply queued = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
        assertThat(queued.json().getInt("version")).isEqualTo(1);
        assertThat(queued.json().getString("status")).isEqualTo("queued");

        JsonObject build = awaitBuild(ana, app, 1, "succeeded");
        String sha = build.getString("sha256");
        assertThat(sha).matches("[0-9a-f]{64}");
        assertThat(build.getJsonArray("log").getValuesAs(JsonString::getString)).anyMatch(l -> l.contains("sealed version 1"))
                .as("the builder's steps, in order").extracting(l -> l.split("[: ]")[0])
                .containsSubsequence("archive", "manifest", "bundle", "sealed", "jobs", "live");
        assertThat(Instant.parse(build.getString("createdAt"))).isBefore(Instant.now().plusSeconds(1));
        assertThat(build.getJsonArray("jobs")).as("the guestbook registers no job").isEmpty();
        // issue 20, first deploy: the first build goes live by itself
        assertThat(api.get("api/v1/apps/" + app, ana.token()).json().getInt("liveVersion")).isEqualTo(1);
        assertThat(build.getJsonArray("log").getValuesAs(JsonString::getString))
                .contains("live: version 1 is the app's first build, so it went live by itself; later builds wait for Promote");

        Reply promoted = api.put("api/v1/apps/" + app + "/live", json("version", 1), ana.token());
        assertThat(promoted.status()).as(promoted.toString()).isEqualTo(200);
        assertThat(promoted.json().getInt("liveVersion")).isEqualTo(1);

        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, null), 401, "X-Qaldy-Service-Token");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, "wrong-token-wrong-token"), 401, "service");
        Reply live = api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, TestCell.runtimeToken());
        assertThat(live.status()).as(live.toString()).isEqualTo(200);
        assertThat(live.json().getString("app")).isEqualTo(app);
        assertThat(live.json().getInt("version")).isEqualTo(1);
        assertThat(live.json().getString("sha256")).isEqualTo(sha);
        BundleSeal seal = BundleSeals.verify(live.json().getString("seal"), TestCell.publicKey());
        assertThat(seal.app()).isEqualTo(app);
        assertThat(seal.version()).isEqualTo(1);
        assertThat(seal.sha256()).isEqualTo(sha);

        Reply bundle = api.internal("GET", "api/v1/internal/apps/" + app + "/versions/1/bundle", null, TestCell.runtimeToken());
        assertThat(bundle.status()).isEqualTo(200);
        assertThat(bundle.header("Content-Type")).isEqualTo("application/zip");
        assertThat(sha256(bundle.body())).isEqualTo(sha);
        List<String> names = new ArrayList<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bundle.body()))) {
            for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                names.add(e.getName());
            }
        }
        assertThat(names).containsExactly("public/index.html", "qaldy.json", "server.js");

        Reply again = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        assertThat(again.json().getInt("version")).isEqualTo(2);
        JsonObject second = awaitBuild(ana, app, 2, "succeeded");
        assertThat(second.getString("sha256")).as("same source, same bundle").isEqualTo(sha);
        assertThat(second.getJsonArray("log").getValuesAs(JsonString::getString)).noneMatch(l -> l.startsWith("live:"));
        assertThat(api.get("api/v1/apps/" + app, ana.token()).json().getInt("liveVersion")).as("a later build waits for Promote").isEqualTo(1);
        assertThat(api.get("api/v1/apps/" + app + "/builds", ana.token()).array())
                .extracting(v -> v.asJsonObject().getInt("version")).containsExactly(2, 1);
        assertProblem(api.put("api/v1/apps/" + app + "/live", json("version", 9), ana.token()), 404, "no version 9");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/versions/9/bundle", null, TestCell.runtimeToken()), 404, "no version 9");
        assertThat(TestCell.spooledUploads()).isZero();
    }

    @Test
    void an_owner_may_have_every_build_go_live_by_itself() {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        assertThat(api.get("api/v1/apps/" + app, ana.token()).json().getBoolean("promoteEveryBuild")).isFalse();
        api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        awaitBuild(ana, app, 1, "succeeded");

        Reply set = api.put("api/v1/apps/" + app + "/promote-every-build", "{\"promoteEveryBuild\":true}", ana.token());
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().getBoolean("promoteEveryBuild")).isTrue();
        api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        assertThat(awaitBuild(ana, app, 2, "succeeded").getJsonArray("log").getValuesAs(JsonString::getString))
                .contains("live: version 2 went live by itself, as the app's settings say for every build");
        assertThat(api.get("api/v1/apps/" + app, ana.token()).json().getInt("liveVersion")).isEqualTo(2);

        assertThat(api.put("api/v1/apps/" + app + "/promote-every-build", "{\"promoteEveryBuild\":false}", ana.token()).status())
                .isEqualTo(200);
        api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        awaitBuild(ana, app, 3, "succeeded");
        assertThat(api.get("api/v1/apps/" + app, ana.token()).json().getInt("liveVersion")).as("back to waiting for Promote").isEqualTo(2);

        assertProblem(api.put("api/v1/apps/" + app + "/promote-every-build", "{\"promoteEveryBuild\":\"yes\"}", ana.token()), 400,
                "must be true or false");
        Person bob = signUpAndIn("bob");
        assertThat(api.put("api/v1/apps/" + app + "/promote-every-build", "{\"promoteEveryBuild\":true}", bob.token()).status())
                .as("only the owner").isIn(403, 404);
        List<String> actions = api.get("api/v1/audit?limit=50", ana.token()).json().getJsonArray("entries").stream()
                .map(JsonValue::asJsonObject).map(e -> e.getString("action") + " " + e.getString("target")).toList();
        assertThat(actions).containsSubsequence("app.promote-every-build false", "promote version 2 (every build goes live by itself)",
                "app.promote-every-build true", "promote version 1 (first build, live by itself)");
    }

    @Test
    void an_archive_whose_qaldy_json_names_another_app_is_refused_at_upload_saying_what_to_change() throws Exception {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        Reply refused = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook("guestbook")), ana.token());
        assertProblem(refused, 400, "This archive's qaldy.json names the app \"guestbook\", not \"" + app + "\". Set \"name\" to \""
                + app + "\" in qaldy.json and upload it again, or upload it to the app \"guestbook\".");
        assertThat(api.get("api/v1/apps/" + app + "/builds", ana.token()).array()).as("nothing was queued").isEmpty();
        Reply right = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        assertThat(right.status()).as(right.toString()).isEqualTo(202);
        assertThat(right.json().getInt("version")).as("the refused upload took no version").isEqualTo(1);
        awaitBuild(ana, app, 1, "succeeded");
    }

    @Test
    void a_zip_slip_archive_fails_its_build_with_a_clear_log_line() throws Exception {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("qaldy.json", "{\"name\":\"" + app + "\",\"kind\":\"app\"}");
        files.put("../../../../tmp/evil.sh", "echo owned");
        Reply queued = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.of(files)), ana.token());
        assertThat(queued.status()).isEqualTo(202);

        JsonObject build = awaitBuild(ana, app, 1, "failed");
        assertThat(build.get("sha256")).isEqualTo(JsonValue.NULL);
        assertThat(build.getJsonArray("log").getValuesAs(JsonString::getString))
                .anyMatch(line -> line.startsWith("refused:") && line.contains("../../../../tmp/evil.sh") && line.contains("'..'"));
        assertProblem(api.put("api/v1/apps/" + app + "/live", json("version", 1), ana.token()), 409, "only a succeeded build can go live");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, TestCell.runtimeToken()), 404, "no live version");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/versions/1/bundle", null, TestCell.runtimeToken()), 404, "has no bundle");

        api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofString("this is not a zip"), ana.token());
        assertThat(awaitBuild(ana, app, 2, "failed").getJsonArray("log").getString(0)).contains("not a zip archive");
    }

    @Test
    void uploads_over_the_limit_get_413_early_and_are_never_buffered() throws Exception {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        long limit = 10L * 1024 * 1024;

        // Declared too large: the answer comes before any of the body is sent.
        URI base = api.base();
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/apps/" + app + "/builds HTTP/1.1\r\nHost: " + base.getHost() + "\r\n"
                    + "Authorization: Bearer " + ana.token() + "\r\nContent-Type: application/zip\r\n"
                    + "Content-Length: " + (limit + 1) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(head).isEqualTo("HTTP/1.1 413");
        }

        // No length declared (chunked): cut off once the count passes the limit.
        InputStream endless = new InputStream() {
            long sent;

            @Override
            public int read() {
                return sent++ < limit + 256 * 1024 ? 'x' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                long left = limit + 256 * 1024 - sent;
                if (left <= 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                java.util.Arrays.fill(b, off, off + n, (byte) 'x');
                sent += n;
                return n;
            }
        };
        Reply streamed = api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofInputStream(() -> endless), ana.token());
        assertProblem(streamed, 413, "limited to 10485760 bytes");
        assertThat(api.get("api/v1/apps/" + app + "/builds", ana.token()).array()).isEmpty();
        assertThat(TestCell.spooledUploads()).isZero();
    }

    /** Issue 3: the sharing-changes feed the gates pull, in order after a cursor, bounded pages, service token only. */
    @Test
    void the_sharing_changes_feed_lists_every_sharing_change_in_order_after_a_cursor() {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        String token = TestCell.serviceToken();
        String path = "api/v1/internal/sharing-changes";

        Reply start = api.internal("GET", path, null, token);
        assertThat(start.status()).as(start.toString()).isEqualTo(200);
        assertThat(start.json().getJsonArray("changes")).as("a starting gate gets the end, no changes").isEmpty();
        long end = start.json().getJsonNumber("next").longValue();
        long version = access(app, ana.id()).getJsonNumber("sharingVersion").longValue();

        String bob = unique("bob") + "@example.com";
        assertThat(api.post("api/v1/apps/" + app + "/shares", json("email", bob), ana.token()).status()).isEqualTo(201);
        assertThat(api.delete("api/v1/apps/" + app + "/shares/" + bob, ana.token()).status()).isEqualTo(204);

        Reply page = api.internal("GET", path + "?since=" + end + "&limit=1000", null, token);
        assertThat(page.status()).isEqualTo(200);
        List<JsonObject> mine = page.json().getJsonArray("changes").stream().map(JsonValue::asJsonObject)
                .filter(c -> c.getString("app").equals(app)).toList();
        assertThat(mine).hasSize(2);
        long first = mine.get(0).getJsonNumber("sequence").longValue();
        long second = mine.get(1).getJsonNumber("sequence").longValue();
        assertThat(mine).as("a sharing version is the change's place in the feed")
                .extracting(c -> c.getJsonNumber("sharingVersion").longValue()).containsExactly(first, second);
        assertThat(first).isGreaterThan(version);
        assertThat(first).isGreaterThan(end);
        assertThat(second).isGreaterThan(first);
        assertThat(page.json().getJsonNumber("next").longValue()).isGreaterThanOrEqualTo(second);
        assertThat(page.json().getBoolean("gap")).isFalse();

        Reply one = api.internal("GET", path + "?since=" + end + "&limit=1&gate=http://127.0.0.1:1", null, token);
        assertThat(one.json().getJsonArray("changes")).hasSize(1);
        assertThat(one.json().getBoolean("more")).isTrue();
        Reply fromFuture = api.internal("GET", path + "?since=" + (second + 1_000_000), null, token);
        assertThat(fromFuture.json().getBoolean("gap")).as("a cursor this feed never gave").isTrue();

        assertProblem(api.internal("GET", path, null, null), 401, "X-Qaldy-Service-Token");
        assertProblem(api.internal("GET", path + "?since=-1", null, token), 400, "since");
        assertProblem(api.internal("GET", path + "?since=x", null, token), 400, "since");
        assertProblem(api.internal("GET", path + "?since=0&limit=x", null, token), 400, "limit");
    }

    @Test
    void sharing_and_revoking_change_the_access_decision_and_the_sharing_version() {
        Person ana = signUpAndIn("ana");
        Person bob = signUpAndIn("bob");
        String app = createApp(ana);
        String token = TestCell.serviceToken();

        JsonObject before = access(app, bob.id());
        assertThat(before.getString("decision")).isEqualTo("deny");
        assertThat(before.getString("app")).isEqualTo(app);
        assertThat(before.getJsonNumber("personId").longValue()).isEqualTo(bob.id());
        long version = before.getJsonNumber("sharingVersion").longValue();
        assertThat(access(app, ana.id()).getString("decision")).isEqualTo("allow");
        assertProblem(api.get("api/v1/apps/" + app, bob.token()), 404, "no app named");

        Reply shared = api.post("api/v1/apps/" + app + "/shares", json("email", bob.email().toUpperCase()), ana.token());
        assertThat(shared.status()).as(shared.toString()).isEqualTo(201);
        assertThat(shared.json().getString("email")).isEqualTo(bob.email());
        JsonObject allowed = access(app, bob.id());
        assertThat(allowed.getString("decision")).isEqualTo("allow");
        long allowedVersion = allowed.getJsonNumber("sharingVersion").longValue();
        assertThat(allowedVersion).isGreaterThan(version);
        assertProblem(api.post("api/v1/apps/" + app + "/shares", json("email", bob.email()), ana.token()), 409, "already shared");
        assertThat(api.get("api/v1/apps/" + app + "/shares", ana.token()).array())
                .extracting(v -> v.asJsonObject().getString("email")).containsExactly(bob.email());

        assertThat(api.get("api/v1/apps", bob.token()).array()).singleElement()
                .satisfies(v -> assertThat(v.asJsonObject().getString("role")).isEqualTo("viewer"));
        assertProblem(api.delete("api/v1/apps/" + app, bob.token()), 403, "only the owner");
        assertProblem(api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), bob.token()), 403, "only the owner");
        assertProblem(api.get("api/v1/apps/" + app + "/shares", bob.token()), 403, "only the owner");
        assertProblem(api.post("api/v1/apps/" + app + "/shares", json("email", ana.email()), ana.token()), 400, "owner can always open");

        assertThat(api.post("api/v1/apps/" + app + "/shares", json("email", unique("carol") + "@example.com"), ana.token()).status())
                .as("someone not signed up yet").isEqualTo(201);
        assertThat(api.delete("api/v1/apps/" + app + "/shares/" + bob.email(), ana.token()).status()).isEqualTo(204);
        JsonObject revoked = access(app, bob.id());
        assertThat(revoked.getString("decision")).isEqualTo("deny");
        assertThat(revoked.getJsonNumber("sharingVersion").longValue()).isGreaterThan(allowedVersion + 1);
        assertProblem(api.delete("api/v1/apps/" + app + "/shares/" + bob.email(), ana.token()), 404, "is not shared with");

        assertProblem(api.internal("GET", "api/v1/internal/access?app=" + app + "&person=" + bob.id(), null, null), 401, "X-Qaldy-Service-Token");
        assertProblem(api.internal("GET", "api/v1/internal/access?app=no-such-app-" + RUN + "&person=1", null, token), 404, "no app named");
        assertProblem(api.internal("GET", "api/v1/internal/access?app=" + app + "&person=x", null, token), 400, "person id");
        assertThat(access(app, 999_999_999L).getString("decision")).isEqualTo("deny");
    }

    @Test
    void the_shields_day_zone_is_an_iana_name_stored_audited_and_fed_to_the_gates() {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        String path = "api/v1/apps/" + app + "/shield";
        assertThat(api.get(path, ana.token()).json().isNull("dayZone")).as("the gate's default").isTrue();
        assertProblem(api.put(path, "{\"dayZone\":\"Mars/Olympus_Mons\"}", ana.token()), 400, "is not a time zone name");
        assertProblem(api.put(path, "{\"dayZone\":\"+01:00\"}", ana.token()), 400, "offsets such as +01:00 are not accepted");
        assertProblem(api.put(path, "{\"dayZone\":\"Europe/" + "x".repeat(500) + "\"}", ana.token()), 400, "1..64 characters");
        assertProblem(api.put(path, "{\"dayZone\":14}", ana.token()), 400, "\"dayZone\" must be a time zone name");

        Reply set = api.put(path, "{\"perAppPerDay\":5,\"dayZone\":\"Pacific/Kiritimati\"}", ana.token());
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().getString("dayZone")).isEqualTo("Pacific/Kiritimati");
        assertThat(api.get(path, ana.token()).json().getString("dayZone")).as("stored").isEqualTo("Pacific/Kiritimati");
        assertThat(api.get("api/v1/audit?limit=50", ana.token()).json().getJsonArray("entries"))
                .extracting(v -> v.asJsonObject().getString("target"))
                .anySatisfy(detail -> assertThat(detail).contains("dayZone=Pacific/Kiritimati"));
        Reply feed = api.internal("GET", "api/v1/internal/shield-settings?since=0&limit=1000", null, TestCell.serviceToken());
        assertThat(feed.json().getJsonArray("settings")).extracting(v -> v.asJsonObject())
                .filteredOn(o -> o.getString("app").equals(app))
                .singleElement().satisfies(o -> assertThat(o.getString("dayZone")).isEqualTo("Pacific/Kiritimati"));

        Reply cleared = api.put(path, "{\"perAppPerDay\":5,\"dayZone\":null}", ana.token());
        assertThat(cleared.json().isNull("dayZone")).as("back to the gate's default").isTrue();
    }

    @Test
    void an_app_becomes_a_public_site_and_back_for_its_owner_only_and_the_gate_is_told() {
        Person ana = signUpAndIn("ana");
        Person bob = signUpAndIn("bob");
        String app = createApp(ana);
        assertThat(api.get("api/v1/apps/" + app, ana.token()).json().getString("kind")).isEqualTo("app");
        JsonObject before = visibility(app);
        assertThat(before.getString("visibility")).isEqualTo("private");
        assertThat(before.getJsonNumber("accountId").longValue()).isEqualTo(ana.id());
        long version = before.getJsonNumber("sharingVersion").longValue();

        Reply site = api.put("api/v1/apps/" + app + "/kind", json("kind", "site"), ana.token());
        assertThat(site.status()).as(site.toString()).isEqualTo(200);
        assertThat(site.json().getString("kind")).isEqualTo("site");
        JsonObject open = visibility(app);
        assertThat(open.getString("visibility")).isEqualTo("public");
        assertThat(open.getString("kind")).isEqualTo("site");
        long siteVersion = open.getJsonNumber("sharingVersion").longValue();
        assertThat(siteVersion).as("pushed to the gates like a share").isGreaterThan(version);
        assertThat(api.put("api/v1/apps/" + app + "/kind", json("kind", "site"), ana.token()).status()).isEqualTo(200);
        assertThat(visibility(app).getJsonNumber("sharingVersion").longValue()).as("no change, no push").isEqualTo(siteVersion);

        assertProblem(api.put("api/v1/apps/" + app + "/kind", json("kind", "public"), ana.token()), 400, "\"kind\" must be");
        assertProblem(api.put("api/v1/apps/" + app + "/kind", json("kind", "app"), bob.token()), 404, "no app named");
        assertThat(api.put("api/v1/apps/" + app + "/kind", json("kind", "app"), ana.token()).status()).isEqualTo(200);
        assertThat(visibility(app).getString("visibility")).isEqualTo("private");

        String born = unique("site");
        Reply created = api.post("api/v1/apps", "{\"name\":\"" + born + "\",\"kind\":\"site\"}", ana.token());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(visibility(born).getString("visibility")).isEqualTo("public");
        assertProblem(api.post("api/v1/apps", "{\"name\":\"" + unique("x") + "\",\"kind\":\"daemon\"}", ana.token()), 400, "\"kind\" must be");
        assertThat(api.get("api/v1/audit?limit=50", ana.token()).json().getJsonArray("entries"))
                .extracting(v -> v.asJsonObject().getString("action") + " " + v.asJsonObject().getString("target"))
                .contains("app.kind site", "app.kind app");

        String token = TestCell.serviceToken();
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/visibility", null, null), 401, "X-Qaldy-Service-Token");
        assertProblem(api.internal("GET", "api/v1/internal/apps/no-such-app-" + RUN + "/visibility", null, token), 404, "no app named");
        // Issue 16: each direction its own credential; one of the cell's used in another direction is 403, not 401.
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/visibility", null, TestCell.runtimeToken()), 403,
                "runtime's credential is not made for this endpoint");
        assertProblem(api.internal("GET", "api/v1/internal/access?app=" + app + "&person=1", null, TestCell.runtimeToken()), 403,
                "not made for this endpoint");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, token), 403, "gate's credential");
        assertProblem(api.internal("GET", "api/v1/internal/access?app=" + app + "&person=1", null,
                TestCell.credential(ServiceDirection.CONTROL_TO_GATE)), 403, "control's credential");
    }

    JsonObject visibility(String app) {
        Reply reply = api.internal("GET", "api/v1/internal/apps/" + app + "/visibility", null, TestCell.serviceToken());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    JsonObject access(String app, long person) {
        Reply reply = api.internal("GET", "api/v1/internal/access?app=" + app + "&person=" + person, null, TestCell.serviceToken());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    @Test
    void a_ticket_is_redeemed_once_for_its_own_app() throws Exception {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        String other = createApp(ana);
        Reply issued = api.post("api/v1/tickets", json("app", app, "returnPath", "/guestbook?page=2"), ana.token());
        assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
        String ticket = issued.json().getString("ticket");
        assertThat(ticket.length()).isGreaterThanOrEqualTo(22);
        assertThat(issued.json().getString("url"))
                .isEqualTo("http://" + app + ".localhost:8080/.qaldy/ticket?t=" + ticket + "&return=/guestbook%3Fpage%3D2");

        String token = TestCell.serviceToken();
        assertProblem(api.internal("POST", "api/v1/internal/tickets/redeem", json("ticket", ticket, "app", app), null), 401, "service");
        assertProblem(api.internal("POST", "api/v1/internal/tickets/redeem", json("ticket", ticket, "app", other), token), 404, "unknown, used or expired");
        Reply redeemed = api.internal("POST", "api/v1/internal/tickets/redeem", json("ticket", ticket, "app", app), token);
        assertThat(redeemed.status()).as(redeemed.toString()).isEqualTo(200);
        Session session = SessionTokens.verify(redeemed.json().getString("token"), TestCell.publicKey(), Clock.systemUTC());
        assertThat(session.personId()).isEqualTo(ana.id());
        assertThat(session.audience()).as("a session for this app's origin only").isEqualTo("app:" + app);
        assertThat(Instant.parse(redeemed.json().getString("expiresAt"))).isEqualTo(session.expiresAt());
        assertProblem(api.get("api/v1/apps", redeemed.json().getString("token")), 401, "opens one app only");
        assertProblem(api.internal("POST", "api/v1/internal/tickets/redeem", json("ticket", ticket, "app", app), token), 404, "unknown, used or expired");
        assertProblem(api.internal("POST", "api/v1/internal/tickets/redeem", json("ticket", "made-up", "app", app), token), 404, "unknown");

        assertProblem(api.post("api/v1/tickets", json("app", app, "returnPath", "//evil.example/"), ana.token()), 400, "returnPath");
        assertProblem(api.post("api/v1/tickets", json("app", "no-such-app-" + RUN, "returnPath", "/"), ana.token()), 404, "no app named");
        assertProblem(api.post("api/v1/tickets", json("app", app, "returnPath", "/"), null), 401, "sign in");
    }

    @Test
    void a_gate_signs_out_the_session_of_a_cookie_it_cleared_and_again_without_harm() throws Exception {
        Person ana = signUpAndIn("signout");
        String app = createApp(ana);
        Reply issued = api.post("api/v1/tickets", json("app", app, "returnPath", "/"), ana.token());
        String token = TestCell.serviceToken();
        Reply redeemed = api.internal("POST", "api/v1/internal/tickets/redeem",
                json("ticket", issued.json().getString("ticket"), "app", app), token);
        String appSession = redeemed.json().getString("token");

        String path = "api/v1/internal/sessions/sign-out";
        assertProblem(api.internal("POST", path, json("token", appSession), null), 401, "service");
        assertProblem(api.internal("POST", path, json("token", "not-a-session-token"), token), 400, "nothing to sign out");
        assertProblem(api.internal("POST", path, json("nothing", "here"), token), 400, "token");
        assertThat(api.internal("POST", path, json("token", appSession), token).status()).isEqualTo(204);
        assertThat(api.internal("POST", path, json("token", appSession), token).status()).as("again").isEqualTo(204);
        assertThat(api.get("api/v1/apps", ana.token()).status()).as("another session of the same person").isEqualTo(200);

        assertThat(api.internal("POST", path, json("token", ana.token()), token).status()).isEqualTo(204);
        assertProblem(api.get("api/v1/apps", ana.token()), 401, "signed out");
    }

    @Test
    void a_starting_gate_reads_the_unexpired_sign_outs_page_by_page_with_the_service_token() throws Exception {
        Person ana = signUpAndIn("marks");
        Session first = SessionTokens.verify(ana.token(), TestCell.publicKey(), Clock.systemUTC());
        Person again = new Person(ana.id(), ana.email(), api.post("api/v1/sessions",
                json("email", ana.email(), "password", PASSWORD), null).json().getString("token"));
        Session second = SessionTokens.verify(again.token(), TestCell.publicKey(), Clock.systemUTC());
        assertThat(api.delete("api/v1/sessions/current", ana.token()).status()).isEqualTo(204);
        assertThat(api.delete("api/v1/sessions/current", again.token()).status()).isEqualTo(204);

        String path = "api/v1/internal/signed-out-sessions";
        assertProblem(api.internal("GET", path, null, null), 401, "X-Qaldy-Service-Token");
        assertProblem(api.internal("GET", path + "?after=-1", null, TestCell.serviceToken()), 400, "after");
        assertProblem(api.internal("GET", path + "?limit=x", null, TestCell.serviceToken()), 400, "limit");

        Map<String, Long> marks = new LinkedHashMap<>();
        long after = 0;
        for (int page = 0; page < 10_000; page++) { // one mark a page: the cursor must walk them all
            Reply reply = api.internal("GET", path + "?limit=1&after=" + after, null, TestCell.serviceToken());
            assertThat(reply.status()).isEqualTo(200);
            JsonObject json = reply.json();
            assertThat(json.getJsonArray("sessions").size()).isLessThanOrEqualTo(1);
            json.getJsonArray("sessions").getValuesAs(JsonObject.class)
                    .forEach(m -> marks.put(m.getString("jti"), m.getJsonNumber("exp").longValueExact()));
            assertThat(json.getJsonNumber("next").longValue()).isGreaterThanOrEqualTo(after);
            after = json.getJsonNumber("next").longValue();
            if (!json.getBoolean("more")) {
                break;
            }
        }
        assertThat(marks).containsEntry(first.tokenId(), first.expiresAt().getEpochSecond())
                .containsEntry(second.tokenId(), second.expiresAt().getEpochSecond());
        assertThat(marks.values()).allSatisfy(exp -> assertThat(exp).isGreaterThan(Instant.now().getEpochSecond()));
        Reply rest = api.internal("GET", path + "?after=" + after, null, TestCell.serviceToken());
        assertThat(rest.json().getJsonArray("sessions")).as("nothing after the last cursor").isEmpty();
    }

    @Test
    void the_audit_log_lists_the_owners_actions_newest_first_in_pages() {
        Person ana = signUpAndIn("ana");
        Person bob = signUpAndIn("bob");
        String app = createApp(ana);
        api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        awaitBuild(ana, app, 1, "succeeded");
        api.put("api/v1/apps/" + app + "/live", json("version", 1), ana.token());
        api.post("api/v1/apps/" + app + "/shares", json("email", bob.email()), ana.token());
        api.delete("api/v1/apps/" + app + "/shares/" + bob.email(), ana.token());
        String doomed = createApp(ana);
        assertThat(api.delete("api/v1/apps/" + doomed, ana.token()).status()).isEqualTo(204);
        String again = api.post("api/v1/sessions", json("email", ana.email(), "password", PASSWORD), null).json().getString("token");
        assertThat(api.delete("api/v1/sessions/current", again).status()).isEqualTo(204);

        Reply page = api.get("api/v1/audit?limit=200", ana.token());
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        List<String> lines = page.json().getJsonArray("entries").stream().map(JsonValue::asJsonObject)
                .map(e -> e.getString("action") + " " + e.getString("target")).toList();
        assertThat(lines).containsSubsequence(
                "sign-out " + ana.email(), "sign-in " + ana.email(), "app.delete " + doomed, "app.create " + doomed,
                "revoke " + bob.email(), "share " + bob.email(), "promote version 1", "build version 1",
                "app.create " + app, "sign-in " + ana.email(), "sign-up " + ana.email());
        JsonObject newest = page.json().getJsonArray("entries").getJsonObject(0);
        assertThat(newest.getString("actor")).isEqualTo(ana.email());
        assertThat(newest.getString("action")).isEqualTo("sign-out");
        assertThat(newest.get("app")).isEqualTo(JsonValue.NULL);
        JsonObject deleted = page.json().getJsonArray("entries").getJsonObject(2);
        assertThat(deleted.getString("action")).isEqualTo("app.delete");
        assertThat(deleted.getString("app")).isEqualTo(doomed);
        assertThat(Instant.parse(newest.getString("at"))).isBefore(Instant.now().plusSeconds(1));
        assertThat(page.json().get("nextBefore")).isEqualTo(JsonValue.NULL);

        Reply first = api.get("api/v1/audit?limit=2", ana.token());
        assertThat(first.json().getJsonArray("entries")).hasSize(2);
        long cursor = first.json().getJsonNumber("nextBefore").longValue();
        Reply second = api.get("api/v1/audit?limit=2&before=" + cursor, ana.token());
        assertThat(second.json().getJsonArray("entries").getJsonObject(0).getString("action") + " "
                + second.json().getJsonArray("entries").getJsonObject(0).getString("target")).isEqualTo(lines.get(2));

        assertThat(api.get("api/v1/audit", bob.token()).json().getJsonArray("entries").stream()
                .map(v -> v.asJsonObject().getString("actor"))).containsOnly(bob.email());
        assertProblem(api.get("api/v1/audit?limit=500", ana.token()), 400, "between 1 and 200");
        assertProblem(api.get("api/v1/audit?limit=x", ana.token()), 400, "whole number");
    }

    @Test
    void the_live_record_is_signed_its_sequence_grows_with_each_change_and_a_deleted_app_gets_a_tombstone() throws Exception {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        LiveStatement nothingYet = tombstone(app, "no live version");
        for (int version = 1; version <= 2; version++) {
            api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
            awaitBuild(ana, app, version, "succeeded");
        }
        List<LiveStatement> records = new ArrayList<>();
        for (int version : new int[] {1, 2, 1}) { // promote, promote, roll back
            assertThat(api.put("api/v1/apps/" + app + "/live", json("version", version), ana.token()).status()).isEqualTo(200);
            Reply live = api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, TestCell.runtimeToken());
            LiveStatement record = LiveStatements.verify(live.json().getString("record"), TestCell.publicKey());
            assertThat(record.app()).isEqualTo(app);
            assertThat(record.version()).isEqualTo(version);
            assertThat(record.sha256()).isEqualTo(live.json().getString("sha256"));
            assertThat(record.gone()).isFalse();
            records.add(record);
        }
        Reply again = api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, TestCell.runtimeToken());
        assertThat(LiveStatements.verify(again.json().getString("record"), TestCell.publicKey()).sequence())
                .as("asking again changes nothing").isEqualTo(records.get(2).sequence());
        assertThat(records.get(0).sequence()).isGreaterThan(nothingYet.sequence());
        assertThat(records.get(1).sequence()).isGreaterThan(records.get(0).sequence());
        assertThat(records.get(2).sequence()).as("a rollback is a newer change").isGreaterThan(records.get(1).sequence());

        assertThat(api.delete("api/v1/apps/" + app, ana.token()).status()).isEqualTo(204);
        LiveStatement gone = tombstone(app, "no app named");
        assertThat(gone.sequence()).as("the deletion is a newer change").isGreaterThan(records.get(2).sequence());
    }

    /** The signed tombstone of the 404 live answer for {@code app}. */
    LiveStatement tombstone(String app, String detailPart) throws Exception {
        Reply reply = api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, TestCell.runtimeToken());
        assertProblem(reply, 404, detailPart);
        LiveStatement tombstone = LiveStatements.verify(reply.json().getString("tombstone"), TestCell.publicKey());
        assertThat(tombstone.app()).isEqualTo(app);
        assertThat(tombstone.gone()).isTrue();
        return tombstone;
    }

    @Test
    void deleting_an_app_takes_its_builds_shares_and_bundles_along() {
        Person ana = signUpAndIn("ana");
        String app = createApp(ana);
        api.upload("api/v1/apps/" + app + "/builds", BodyPublishers.ofByteArray(Zips.guestbook(app)), ana.token());
        awaitBuild(ana, app, 1, "succeeded");
        api.put("api/v1/apps/" + app + "/live", json("version", 1), ana.token());
        api.post("api/v1/apps/" + app + "/shares", json("email", "someone@example.com"), ana.token());
        long lastVersion = access(app, ana.id()).getJsonNumber("sharingVersion").longValue();

        assertThat(api.delete("api/v1/apps/" + app, ana.token()).status()).isEqualTo(204);
        String token = TestCell.serviceToken();
        assertProblem(api.get("api/v1/apps/" + app, ana.token()), 404, "no app named");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/live", null, TestCell.runtimeToken()), 404, "no app named");
        assertProblem(api.internal("GET", "api/v1/internal/apps/" + app + "/versions/1/bundle", null, TestCell.runtimeToken()), 404, "no app named");
        assertProblem(api.internal("GET", "api/v1/internal/access?app=" + app + "&person=" + ana.id(), null, token), 404, "no app named");
        assertThat(api.post("api/v1/apps", json("name", app), ana.token()).status()).as("the name is free again").isEqualTo(201);
        // A gate keeps the newest sharing version it saw of a name and never remembers an older answer
        // (issue 14): the new app's versions rise above the deleted one's, its deletion's included.
        assertThat(access(app, ana.id()).getJsonNumber("sharingVersion").longValue()).isGreaterThan(lastVersion + 1);
        assertThat(api.get("api/v1/apps/" + app + "/builds", ana.token()).array()).isEmpty();
    }

    @Test
    void bad_requests_get_clean_problems_and_health_is_up() throws IOException {
        assertProblem(api.send("api/v1/people", Map.of("Content-Type", "application/json"), "POST",
                BodyPublishers.ofString("{\"email\": ")), 400, "not valid JSON");
        assertProblem(api.send("api/v1/people", Map.of("Content-Type", "application/json"), "POST",
                BodyPublishers.ofString("[\"email\"]")), 400, "must be a JSON object");
        assertProblem(api.post("api/v1/people", json("email", 7, "password", PASSWORD), null), 400, "\"email\" is required and must be a string");
        String huge = "{\"email\":\"" + "a".repeat(70 * 1024) + "\"}";
        assertProblem(api.post("api/v1/people", huge, null), 413, "65536 bytes");
        assertProblem(api.send("api/v1/people", Map.of("Content-Type", "text/plain"), "POST", BodyPublishers.ofString("x")),
                415, "content type");
        assertProblem(api.get("api/v1/no/such/thing", null), 404, "no such resource");

        Reply ready = api.get("health/ready", null);
        assertThat(ready.status()).as(ready.toString()).isEqualTo(200);
        assertThat(ready.json().getString("status")).isEqualTo("UP");
        assertThat(ready.text()).contains("database");
        assertThat(api.get("health/live", null).json().getString("status")).isEqualTo("UP");
    }
}
