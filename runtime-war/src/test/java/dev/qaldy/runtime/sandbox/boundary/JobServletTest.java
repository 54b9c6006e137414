package dev.qaldy.runtime.sandbox.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.FakeControlPlane;
import dev.qaldy.runtime.testing.FakeControlPlane.Reply;
import dev.qaldy.runtime.testing.FakeHttp;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import dev.qaldy.runtime.testing.TestHost;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control plane's job endpoint, with a real bundle, seal and sandbox behind it. */
class JobServletTest {

    final KeyPair cell = TestBundles.keys();
    final FakeControlPlane api = new FakeControlPlane();
    @TempDir
    Path dir;
    TestHost host;

    @BeforeEach
    void start() {
        CellCredentials credentials = TestCredentials.write(dir, cell);
        host = new TestHost(api.url(), credentials, dir.resolve("dc-cache"), Clock.systemUTC());
        byte[] zip = TestBundles.zip(Map.of(
                "qaldy.json", "{\"name\":\"guestbook\",\"kind\":\"app\"}",
                "public/index.html", "<h1>hi</h1>",
                "server.js", "app.job('digest', function (ctx) { console.log('note ' + (ctx.json ? ctx.json.note : '-')); });"));
        LiveVersion live = TestBundles.live("guestbook", 2, zip, cell);
        api.reply("/api/v1/internal/apps/guestbook/live", Reply.json(200, "{\"app\":\"guestbook\",\"version\":2,\"sha256\":\""
                + live.sha256() + "\",\"seal\":\"" + live.seal() + "\",\"accountId\":" + FakeControlPlane.ACCOUNT + "}"));
        api.reply("/api/v1/internal/apps/guestbook/versions/2/bundle", Reply.zip(zip));
        api.roomyCap(cell, java.time.Instant.now(), 1);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    JsonObject run(String job, String payload) throws Exception {
        String body = Json.createObjectBuilder().add("tick", "2026-11-30T08:00:00Z").add("actor", "webhook")
                .add("payload", payload).build().toString();
        FakeHttp.Response response = new FakeHttp.Response();
        host.jobs.service(FakeHttp.request("POST", "/.qaldy/jobs/" + job, Map.of("X-Qaldy-Service-Token", TestCredentials.FROM_CONTROL,
                "X-Qaldy-Run", "7", "X-Qaldy-App", "guestbook", "X-Qaldy-Data-Grant", TestCredentials.grant("guestbook")), body.getBytes(StandardCharsets.UTF_8)), response.servlet);
        assertThat(response.status).as(response.text()).isEqualTo(200);
        assertThat(response.headers.get("connection")).as("one run, one connection").containsExactly("close");
        return Json.createReader(new StringReader(response.text())).readObject();
    }

    @Test
    void a_webhook_payload_nested_past_the_bound_fails_the_run_with_that_reason_without_running_the_job() throws Exception {
        JsonObject fine = run("digest", "{\"note\":\"deploy 42\"}");
        assertThat(fine.getString("outcome")).isEqualTo("succeeded");
        assertThat(fine.getJsonArray("log").getString(0)).isEqualTo("note deploy 42");

        JsonObject deep = run("digest", "{\"note\":" + "[".repeat(3000) + "]".repeat(3000) + "}");
        assertThat(deep.getString("outcome")).isEqualTo("failed");
        assertThat(deep.getJsonArray("log")).as("the job did not run").isEmpty();
        assertThat(deep.getString("error")).contains("nested too deeply").contains("did not run the job");
    }

    @Test
    void a_job_the_live_version_lacks_fails_naming_the_version_and_the_jobs_it_has() throws Exception {
        JsonObject missing = run("report", "{}");
        assertThat(missing.getString("outcome")).isEqualTo("failed");
        assertThat(missing.getString("error")).isEqualTo("the live version 2 of guestbook has no job handler named \"report\":"
                + " its server.js registers these jobs: digest; promote a version with app.job('report', function (ctx) { … }),"
                + " or change the schedule or hook");
    }
}
