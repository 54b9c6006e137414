package dev.qaldy.runtime.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Answered;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.sandbox.entity.JobOutcome;
import dev.qaldy.runtime.sandbox.entity.JobRequest;
import dev.qaldy.runtime.testing.FakeDataApi;
import dev.qaldy.runtime.testing.TestHealth;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code qaldy.data} in server.js: the app's own collections in the data API, bounded, and a clear error while it is down. */
class DataApiTest {

    final FakeDataApi api = new FakeDataApi();
    final Sandbox sandbox = api.sandbox(1000, 500);

    @AfterEach
    void stop() {
        api.close();
    }

    static Bundle app(String name, String serverJs) {
        return TestBundles.bundle(name, 1, Map.of("qaldy.json", "{\"name\":\"" + name + "\",\"kind\":\"app\"}",
                "server.js", serverJs, "public/index.html", "<h1>hi</h1>"));
    }

    HandlerOutcome get(Bundle bundle, String path) {
        return sandbox.handle(bundle, new HandlerRequest("GET", path, Map.of(), Map.of(), "", null), TestCredentials.grant(bundle.key().app()));
    }

    static String body(HandlerOutcome outcome) {
        assertThat(outcome).as(String.valueOf(outcome)).isInstanceOf(Answered.class);
        return new String(((Answered) outcome).body(), StandardCharsets.UTF_8);
    }

    static final String CRUD = """
            app.get('/api/crud', function () {
              var a = qaldy.data.create('notes', {text: 'first', n: 1});
              var b = qaldy.data.create('notes', {text: 'second', n: 2});
              var got = qaldy.data.get('notes', a.id);
              var put = qaldy.data.put('notes', b.id, {text: 'changed'});
              var oldest = qaldy.data.list('notes');
              var newest = qaldy.data.list('notes', {limit: 1, order: 'newest'});
              var deleted = qaldy.data.delete('notes', a.id);
              return {json: {got: got.data.text, by: got.createdBy, put: put.data.text, oldest: oldest.records.length,
                newest: newest.records[0].data.text, nextAfter: newest.nextAfter, deleted: deleted,
                deletedAgain: qaldy.data.delete('notes', a.id), gone: qaldy.data.get('notes', a.id),
                left: qaldy.data.list('notes', {limit: 100}).records.map(function (r) { return r.data.text; })}};
            });
            """;

    @Test
    void a_handler_creates_reads_lists_replaces_and_deletes_its_own_records_with_its_own_grant_only() {
        HandlerOutcome outcome = get(app("board", CRUD), "/api/crud");
        assertThat(body(outcome)).isEqualTo("{\"got\":\"first\",\"by\":\"server.js\",\"put\":\"changed\",\"oldest\":2,"
                + "\"newest\":\"changed\",\"nextAfter\":2,\"deleted\":true,\"deletedAgain\":false,\"gone\":null,\"left\":[\"changed\"]}");
        assertThat(api.calls).allSatisfy(call -> {
            assertThat(call.target()).startsWith(DataGrants.PATH + "board/notes");
            assertThat(TestCredentials.GRANTS.allows("board", call.grant(), Instant.now())).as("the gate's grant for board").isTrue();
            assertThat(call.serviceToken()).as("the host's own credential, never another's").isEqualTo(TestCredentials.TO_CONTROL);
        });
    }

    @Test
    void one_app_never_sees_another_apps_records() {
        get(app("board", "app.get('/api/add', function () { qaldy.data.create('notes', {secret: 'board'}); });"), "/api/add");
        HandlerOutcome other = get(app("other", "app.get('/api/list', function () { return {json: qaldy.data.list('notes')}; });"),
                "/api/list");
        assertThat(body(other)).isEqualTo("{\"records\":[],\"nextAfter\":null}");
        assertThat(api.calls.get(1).target()).startsWith(DataGrants.PATH + "other/");
    }

    @Test
    void code_run_with_another_apps_grant_or_none_reaches_no_data() {
        // Issue 16: the host cannot make a grant; the one that came with the request names the app it may reach.
        Bundle other = app("other", "app.get('/api/peek', function () { try { qaldy.data.list('notes'); return {json: 'read'}; }"
                + " catch (e) { return {json: e.code + ':' + e.status}; } });");
        HandlerRequest peek = new HandlerRequest("GET", "/api/peek", Map.of(), Map.of(), "", null);
        assertThat(body(sandbox.handle(other, peek, TestCredentials.grant("board")))).isEqualTo("\"unexpected:403\"");
        assertThat(body(sandbox.handle(other, peek, null))).isEqualTo("\"unexpected:403\"");
        assertThat(body(sandbox.handle(other, peek, TestCredentials.grant("other")))).isEqualTo("\"read\"");
    }

    @Test
    void bad_input_and_oversized_records_are_catchable_errors_and_never_reach_the_api() {
        HandlerOutcome outcome = get(app("board", """
                app.get('/api/bad', function () {
                  var codes = [];
                  function attempt(f) { try { f(); codes.push('none'); } catch (e) { codes.push(e.name + ':' + e.code + ':' + e.status); } }
                  attempt(function () { qaldy.data.create('../apps', {a: 1}); });
                  attempt(function () { qaldy.data.create('Notes', {a: 1}); });
                  attempt(function () { qaldy.data.create('notes', [1, 2]); });
                  attempt(function () { qaldy.data.create('notes', {pad: new Array(17 * 1024).join('x')}); });
                  attempt(function () { qaldy.data.get('notes', '1/../../x'); });
                  attempt(function () { qaldy.data.list('notes', {limit: 101}); });
                  attempt(function () { qaldy.data.list('notes', {order: 'random'}); });
                  attempt(function () { qaldy.data = null; });
                  return {json: codes};
                });
                """), "/api/bad");
        assertThat(body(outcome)).isEqualTo("[\"QaldyDataError:invalid:400\",\"QaldyDataError:invalid:400\","
                + "\"QaldyDataError:invalid:400\",\"QaldyDataError:too-large:413\",\"QaldyDataError:invalid:400\","
                + "\"QaldyDataError:invalid:400\",\"QaldyDataError:invalid:400\",\"none\"]");
        assertThat(api.calls).isEmpty();
        assertThat(body(get(app("board", "app.get('/api/same', function () { qaldy.data = null; return {json: typeof qaldy.data.get}; });"),
                "/api/same"))).as("qaldy.data cannot be replaced").isEqualTo("\"function\"");
    }

    @Test
    void a_handler_makes_a_bounded_number_of_data_calls() {
        HandlerOutcome outcome = get(app("board", """
                app.get('/api/many', function () {
                  try { for (var i = 0; i < 100; i++) qaldy.data.list('notes'); } catch (e) { return {json: {calls: i, code: e.code}}; }
                });
                """), "/api/many");
        assertThat(body(outcome)).isEqualTo("{\"calls\":20,\"code\":\"limit\"}");
        assertThat(api.calls).hasSize(20);
    }

    static final String OUTAGE = """
            app.get('/api/caught', function () {
              try { qaldy.data.list('notes'); } catch (e) {
                var again;
                try { qaldy.data.create('notes', {a: 1}); } catch (e2) { again = e2.code; }
                return {status: 503, json: {name: e.name, code: e.code, status: e.status, again: again, message: e.message}};
              }
            });
            app.get('/api/uncaught', function () { return {json: qaldy.data.list('notes')}; });
            app.job('count', function () { console.log('notes: ' + qaldy.data.list('notes').records.length); });
            """;

    @Test
    void while_the_api_is_down_a_handler_can_catch_a_clear_error_and_an_uncaught_one_is_data_unavailable() {
        Bundle bundle = app("board", OUTAGE);
        api.down(503);
        HandlerOutcome caught = get(bundle, "/api/caught");
        assertThat(((Answered) caught).status()).isEqualTo(503);
        assertThat(body(caught)).contains("\"name\":\"QaldyDataError\",\"code\":\"unavailable\",\"status\":503,"
                + "\"again\":\"unavailable\"").contains("cannot be reached right now");
        assertThat(api.calls).as("after one failure the call's later data calls fail at once").hasSize(1);

        HandlerOutcome uncaught = get(bundle, "/api/uncaught");
        assertThat(uncaught).isInstanceOf(HandlerOutcome.DataUnavailable.class);
        JobOutcome job = sandbox.runJob(bundle, new JobRequest(1, "2026-11-30T12:00:00Z", "scheduler", "count", null), TestCredentials.grant(bundle.key().app()));
        assertThat(job.succeeded()).isFalse();
        assertThat(job.error()).contains("QaldyDataError").contains("cannot be reached");

        api.up();
        // A read is not sent while the host's view says failing (a replica answers it then, issue 18): the probe finds it back.
        TestHealth.awaitUp(api.health);
        assertThat(body(get(bundle, "/api/uncaught"))).isEqualTo("{\"records\":[],\"nextAfter\":null}");
    }

    @Test
    void a_hung_api_costs_a_handler_one_timeout_not_a_hang() {
        Bundle bundle = app("board", OUTAGE);
        api.hang();
        long start = System.nanoTime();
        HandlerOutcome outcome = get(bundle, "/api/caught");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(body(outcome)).contains("\"code\":\"unavailable\"");
        assertThat(ms).as("one data timeout of 500 ms, not two, not a hang").isBetween(400L, 1_500L);
    }
}
