package dev.qaldy.runtime.cap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.cap.Prices;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.FakeControlPlane;
import dev.qaldy.runtime.testing.FakeHttp;
import dev.qaldy.runtime.testing.MovableClock;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import dev.qaldy.runtime.testing.TestHost;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime host's spending cap through its front door: server code of an account at its cap
 * does not run, with or without the API; CPU time is counted and survives a restart; an account
 * whose cap the host never received does not run server code while the API is down.
 */
class RunCapTest {

    static final String APP = "guestbook";
    final KeyPair cell = TestBundles.keys();
    final FakeControlPlane api = new FakeControlPlane();
    final MovableClock clock = new MovableClock(TestBundles.NOW);
    final String period = CapState.periodOf(TestBundles.NOW);
    @TempDir
    Path dir;
    CellCredentials credentials;
    byte[] zip;
    LiveVersion live;

    @BeforeEach
    void start() {
        credentials = TestCredentials.write(dir, cell);
        zip = TestBundles.zip(Map.of(
                "qaldy.json", "{\"name\":\"guestbook\",\"kind\":\"app\",\"handler\":\"server.js\"}",
                "public/index.html", "<h1>Guestbook</h1>",
                "server.js", "app.post('/api/sign', function (req) { var s = 0; for (var i = 0; i < 20000; i++) { s += i; }"
                        + " return {json: {hi: req.json.name}}; });"));
        live = TestBundles.live(APP, 1, zip, cell);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    CapState state(long capCents, long spentMillicents, Prices prices, long sequence) {
        return new CapState(FakeControlPlane.ACCOUNT, period, capCents, spentMillicents, TestBundles.NOW.toEpochMilli(), prices,
                TestBundles.NOW.toEpochMilli(), sequence);
    }

    TestHost host() {
        return new TestHost(api.url(), credentials, dir.resolve("dc-cache"), clock);
    }

    static FakeHttp.Response sign(TestHost host, String... headers) {
        Map<String, String> all = TestHost.gate(APP, "Content-Type", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            all.put(headers[i], headers[i + 1]);
        }
        return host.send("POST", "/api/sign", all, "{\"name\":\"Ada\"}");
    }

    @Test
    void over_the_cap_server_code_does_not_run_but_static_files_are_the_gates_to_cap() {
        api.capState(state(1, 1000, new Prices(50, 1), 5), cell);
        api.publish(live, zip);
        TestHost host = host();

        FakeHttp.Response asleep = sign(host, "Accept", "application/json");
        assertThat(asleep.status).isEqualTo(503);
        assertThat(asleep.text()).contains("\"type\":\"urn:qaldy:problem:asleep\"").contains("its spending cap was reached");
        assertThat(Long.parseLong(asleep.header("Retry-After")))
                .isEqualTo(Duration.between(TestBundles.NOW, Instant.parse("2026-12-01T00:00:00Z")).toSeconds());
        assertThat(host.get(APP, "/").status).isEqualTo(200);
        assertThat(host.cap.keeper().orElseThrow().held().get(0).unbilledCpuMs()).as("nothing ran, nothing counted").isZero();
    }

    /** Issue 16 item 5: a state the control plane pushes is taken at once, not a refresh later; only its credential may push. */
    @Test
    void a_pushed_state_puts_the_account_to_sleep_at_once_and_only_the_control_plane_may_push() {
        api.capState(state(500, 0, new Prices(50, 1), 5), cell);
        api.publish(live, zip);
        TestHost host = host();
        assertThat(sign(host).status).as("under the cap").isEqualTo(200);
        CapStateServlet push = new CapStateServlet(credentials, host.cap);
        String asleep = CapStates.sign(state(1, 1000, new Prices(50, 1), 6), CellKeys.signing(cell));

        assertThat(post(push, asleep, TestCredentials.FROM_GATE).status).as("the gate's credential").isEqualTo(403);
        assertThat(post(push, asleep, "not-a-credential-of-this-cell").status).isEqualTo(401);
        assertThat(sign(host).status).as("nothing pushed yet").isEqualTo(200);
        FakeHttp.Response taken = post(push, asleep, TestCredentials.FROM_CONTROL);
        assertThat(taken.status).isEqualTo(200);
        assertThat(taken.text()).isEqualTo("{\"result\":\"accepted\",\"sequence\":6}");
        assertThat(sign(host, "Accept", "application/json").text()).as("asleep at once, with no fetch").contains("urn:qaldy:problem:asleep");

        String older = CapStates.sign(state(500, 0, new Prices(50, 1), 5), CellKeys.signing(cell));
        FakeHttp.Response refused = post(push, older, TestCredentials.FROM_CONTROL);
        assertThat(refused.status).isEqualTo(409);
        assertThat(refused.header("X-Qaldy-Cap-Refusal")).isEqualTo("older-sequence");
        assertThat(sign(host).status).as("the newer state holds").isEqualTo(503);
    }

    static FakeHttp.Response post(CapStateServlet servlet, String jws, String credential) {
        FakeHttp.Response response = new FakeHttp.Response();
        try {
            servlet.service(FakeHttp.request("POST", "/.qaldy/internal/cap-states", Map.of("X-Qaldy-Service-Token", credential),
                    jws.getBytes(java.nio.charset.StandardCharsets.US_ASCII)), response.servlet);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return response;
    }

    @Test
    void cpu_time_of_server_code_is_counted_and_puts_the_account_to_sleep_at_its_cap() {
        api.capState(state(1, 0, new Prices(0, 1000), 5), cell); // 1 cent a CPU millisecond, a cap of 1 cent
        api.publish(live, zip);
        TestHost host = host();

        FakeHttp.Response first = sign(host);
        assertThat(first.status).isEqualTo(200);
        assertThat(first.text()).isEqualTo("{\"hi\":\"Ada\"}");
        assertThat(host.cap.keeper().orElseThrow().held().get(0).unbilledCpuMs()).as("at least 1 ms a run").isPositive();
        FakeHttp.Response second = sign(host);
        assertThat(second.status).as("the first run used the cent").isEqualTo(503);
        assertThat(second.text()).contains("This app is asleep");
    }

    @Test
    void a_job_runs_cpu_is_counted_against_the_apps_account_and_never_refused() {
        api.capState(state(1, 1000, new Prices(50, 1), 5), cell); // at the cap: handlers refused, jobs only billed
        api.publish(live, zip);
        TestHost host = host();

        host.cap.ranJob(APP, 7);
        assertThat(host.cap.keeper().orElseThrow().held().get(0).unbilledCpuMs()).isEqualTo(7);
        host.cap.ranJob("no-such-app", 3); // no account can be known: logged, not counted, no exception
        assertThat(host.cap.keeper().orElseThrow().held().get(0).unbilledCpuMs()).isEqualTo(7);
    }

    @Test
    void a_host_restarted_during_an_outage_keeps_the_cap_and_the_cpu_it_counted() {
        api.capState(state(500, 0, new Prices(0, 1), 5), cell);
        api.publish(live, zip);
        TestHost before = host();
        assertThat(sign(before).status).isEqualTo(200);
        long counted = before.cap.keeper().orElseThrow().held().get(0).unbilledCpuMs();
        before.cap.flush();
        api.down(503);
        clock.advance(TestHost.FRESHNESS);

        TestHost restarted = host();
        assertThat(restarted.cap.keeper().orElseThrow().held().get(0).unbilledCpuMs()).as("not lost, not reset").isEqualTo(counted);
        FakeHttp.Response ran = sign(restarted);
        assertThat(ran.status).isEqualTo(200);
        assertThat(ran.header("X-Qaldy-Code")).isEqualTo("dc-copy");
    }

    @Test
    void an_account_never_received_runs_no_server_code_while_the_api_is_down() {
        api.capState(state(500, 0, new Prices(0, 1), 5), cell);
        api.forget("/api/v1/internal/cap-states"); // live answers name the account; its cap state never comes
        api.publish(live, zip);
        TestHost host = host();
        assertThat(host.get(APP, "/").status).isEqualTo(200);
        assertThat(host.cap.keeper().orElseThrow().state(FakeControlPlane.ACCOUNT)).isEmpty();
        api.down(503);
        clock.advance(TestHost.FRESHNESS);

        FakeHttp.Response refused = sign(host, "Accept", "application/json");
        assertThat(refused.status).isEqualTo(503);
        assertThat(refused.text()).contains("urn:qaldy:problem:temporarily-unavailable");
        assertThat(sign(host()).status).as("nor after a restart").isEqualTo(503);
    }

    @Test
    void without_an_account_in_the_live_answer_or_on_disk_server_code_does_not_run() {
        api.publish(live, zip); // no cap set: live answers name no account
        FakeHttp.Response refused = sign(host(), "Accept", "application/json");
        assertThat(refused.status).isEqualTo(503);
        assertThat(refused.text()).contains("urn:qaldy:problem:temporarily-unavailable");
    }
}
