package dev.qaldy.runtime.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.sandbox.control.AppStore;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Answered;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Failed;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Header;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.NoHandler;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.TimedOut;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.testing.TestBundles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class SandboxTest {

    static final long CPU_MS = 200;
    final Sandbox sandbox = new Sandbox(CPU_MS, 32L * 1024 * 1024, new AppStore(1 << 20),
            Logger.getLogger(SandboxTest.class.getName()));

    static Bundle app(String serverJs) {
        return TestBundles.bundle("demo", 1, Map.of("qaldy.json", "{\"name\":\"demo\",\"kind\":\"app\"}",
                "server.js", serverJs, "public/index.html", "<h1>hi</h1>"));
    }

    static HandlerRequest get(String path) {
        return new HandlerRequest("GET", path, Map.of(), Map.of(), "", null);
    }

    static String body(HandlerOutcome outcome) {
        assertThat(outcome).isInstanceOf(Answered.class);
        return new String(((Answered) outcome).body(), StandardCharsets.UTF_8);
    }

    static String header(HandlerOutcome outcome, String name) {
        return ((Answered) outcome).headers().stream().filter(h -> h.name().equalsIgnoreCase(name))
                .map(Header::value).findFirst().orElse(null);
    }

    @Test
    void a_handler_answers_json_with_its_status_and_a_json_content_type() {
        HandlerOutcome outcome = sandbox.handle(app("app.get('/api/hello', function (req) {"
                + " return {status: 201, json: {hello: 'world', n: 2}}; });"), get("/api/hello"), null);
        assertThat(((Answered) outcome).status()).isEqualTo(201);
        assertThat(body(outcome)).isEqualTo("{\"hello\":\"world\",\"n\":2}");
        assertThat(header(outcome, "Content-Type")).isEqualTo("application/json");
    }

    @Test
    void a_string_body_is_plain_text_unless_the_handler_says_otherwise() {
        Bundle bundle = app("app.get('/api/t', function () { return {body: 'hi'}; });"
                + "app.get('/api/h', function () { return {body: '<b>x</b>', headers: {'Content-Type': 'text/html'}}; });");
        HandlerOutcome text = sandbox.handle(bundle, get("/api/t"), null);
        assertThat(header(text, "content-type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(((Answered) text).status()).isEqualTo(200);
        HandlerOutcome html = sandbox.handle(bundle, get("/api/h"), null);
        assertThat(header(html, "content-type")).isEqualTo("text/html");
        assertThat(((Answered) html).headers()).hasSize(1);
    }

    @Test
    void the_request_object_follows_the_contract_and_hides_the_cells_secrets() {
        Bundle bundle = app("app.post('/api/echo', function (req) { return {json: req}; });");
        HandlerRequest request = new HandlerRequest("POST", "/api/echo", Map.of("q", "a b"),
                Map.of("Content-Type", "application/json; charset=utf-8", "X-Qaldy-Service-Token", "secret",
                        "Authorization", "Bearer jws", "Cookie", "theme=dark; qaldy_session=jws; lang=en"),
                "{\"name\":\"Ada\"}", "ada@example.com");
        String echoed = body(sandbox.handle(bundle, request, null));
        assertThat(echoed)
                .contains("\"method\":\"POST\"", "\"path\":\"/api/echo\"", "\"query\":{\"q\":\"a b\"}",
                        "\"json\":{\"name\":\"Ada\"}", "\"person\":\"ada@example.com\"",
                        "\"cookie\":\"theme=dark; lang=en\"", "\"content-type\":\"application/json; charset=utf-8\"")
                .doesNotContain("secret", "Bearer", "qaldy_session", "authorization");
    }

    @Test
    void a_body_that_is_not_json_gives_json_null() {
        Bundle bundle = app("app.post('/api/x', function (req) { return {json: {json: req.json, body: req.body}}; });");
        HandlerRequest request = new HandlerRequest("POST", "/api/x", Map.of(),
                Map.of("content-type", "application/json"), "{not json", null);
        assertThat(body(sandbox.handle(bundle, request, null))).isEqualTo("{\"json\":null,\"body\":\"{not json\"}");
    }

    @Test
    void scripts_cannot_reach_java() {
        Bundle bundle = app("app.get('/api/exit', function () { java.lang.System.exit(1); return {json: 1}; });"
                + "app.get('/api/packages', function () { return {json: String(Packages.java.lang.System)}; });"
                + "app.get('/api/types', function () { return {json: [typeof java, typeof Packages, typeof JavaImporter,"
                + " typeof getClass, typeof JavaAdapter, typeof importPackage, typeof importClass]}; });"
                + "app.get('/api/ctor', function () { return {json: this.constructor.constructor('return typeof java')()}; });");
        HandlerOutcome exit = sandbox.handle(bundle, get("/api/exit"), null);
        assertThat(exit).isInstanceOf(Failed.class);
        assertThat(((Failed) exit).reason()).contains("java");
        assertThat(sandbox.handle(bundle, get("/api/packages"), null)).isInstanceOf(Failed.class);
        assertThat(body(sandbox.handle(bundle, get("/api/types"), null)))
                .isEqualTo("[\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\"]");
        assertThat(body(sandbox.handle(bundle, get("/api/ctor"), null))).isEqualTo("\"undefined\"");
    }

    @Test
    void java_at_the_top_of_the_script_fails_every_call_and_the_host_stays_up() {
        Bundle bundle = app("java.lang.System.exit(1); app.get('/api/x', function () { return {json: 1}; });");
        assertThat(sandbox.handle(bundle, get("/api/x"), null)).isInstanceOf(Failed.class);
        assertThat(sandbox.handle(bundle, get("/api/x"), null)).isInstanceOf(Failed.class);
    }

    @Test
    void an_endless_loop_is_stopped_within_the_cpu_limit() {
        Bundle bundle = app("app.get('/api/loop', function () { while (true) {} });");
        long start = System.nanoTime();
        HandlerOutcome outcome = sandbox.handle(bundle, get("/api/loop"), null);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(outcome).isInstanceOf(TimedOut.class);
        assertThat(((TimedOut) outcome).cpuMillis()).isGreaterThanOrEqualTo(CPU_MS);
        assertThat(tookMs).isLessThan(CPU_MS * 10);
    }

    @Test
    void a_loop_cannot_catch_its_own_stop_nor_answer_from_finally() {
        Bundle bundle = app("app.get('/api/sly', function () {"
                + " try { while (true) {} } catch (e) { return {json: 'caught'}; } finally { return {json: 'finally'}; } });"
                + "app.get('/api/ok', function () { return {json: 'ok'}; });");
        assertThat(sandbox.handle(bundle, get("/api/sly"), null)).isInstanceOf(TimedOut.class);
        assertThat(body(sandbox.handle(bundle, get("/api/ok"), null))).isEqualTo("\"ok\"");
    }

    @Test
    void a_loop_at_the_top_of_the_script_is_stopped_too() {
        assertThat(sandbox.handle(app("for (;;) {}"), get("/api/x"), null)).isInstanceOf(TimedOut.class);
    }

    @Test
    void runaway_allocation_is_stopped() {
        Bundle bundle = app("app.get('/api/grow', function () { var a = [];"
                + " for (;;) { a.push('x'.repeat(100000) + a.length); } });");
        HandlerOutcome outcome = sandbox.handle(bundle, get("/api/grow"), null);
        assertThat(outcome).isInstanceOfAny(Failed.class, TimedOut.class);
    }

    @Test
    void a_throw_is_an_error_outcome_with_the_message_for_the_log() {
        HandlerOutcome outcome = sandbox.handle(app("app.get('/api/boom', function () { throw new Error('kaboom'); });"),
                get("/api/boom"), null);
        assertThat(outcome).isInstanceOf(Failed.class);
        assertThat(((Failed) outcome).reason()).contains("kaboom").contains("server.js:1");
    }

    @Test
    void a_script_that_does_not_compile_fails_every_call() {
        HandlerOutcome outcome = sandbox.handle(app("app.get('/api/x', function ( {"), get("/api/x"), null);
        assertThat(outcome).isInstanceOf(Failed.class);
        assertThat(((Failed) outcome).reason()).contains("does not compile");
    }

    @Test
    void output_is_bounded() {
        Bundle bundle = app("app.get('/api/big', function () { return {body: 'x'.repeat(2 * 1024 * 1024)}; });"
                + "app.get('/api/wide', function () { var s = 'y'.repeat(1024 * 1024), a = [];"
                + " for (var i = 0; i < 1000; i++) { a.push(s); } return {json: a}; });"
                + "app.get('/api/fits', function () { return {body: 'z'.repeat(1024 * 1024)}; });");
        assertThat(sandbox.handle(bundle, get("/api/big"), null)).isInstanceOf(Failed.class);
        long start = System.nanoTime();
        assertThat(sandbox.handle(bundle, get("/api/wide"), null)).isInstanceOf(Failed.class);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000);
        assertThat(((Answered) sandbox.handle(bundle, get("/api/fits"), null)).body()).hasSize(1024 * 1024);
    }

    @Test
    void answers_outside_the_contract_fail() {
        Bundle bundle = app("app.get('/api/status', function () { return {status: 99, json: 1}; });"
                + "app.get('/api/crlf', function () { return {headers: {'X-A': 'a\\r\\nSet-Cookie: x=1'}, json: 1}; });"
                + "app.get('/api/promise', function () { return Promise.resolve(1); });"
                + "app.get('/api/number', function () { return 42; });");
        for (String path : List.of("/api/status", "/api/crlf", "/api/promise", "/api/number")) {
            assertThat(sandbox.handle(bundle, get(path), null)).as(path).isInstanceOf(Failed.class);
        }
    }

    @Test
    void headers_the_server_owns_are_dropped() {
        Bundle bundle = app("app.get('/api/h', function () { return {json: 1, headers: {'Connection': 'close',"
                + " 'Content-Length': '1', 'X-Qaldy-App': 'other', 'Set-Cookie': ['qaldy_session=x', 'theme=dark'],"
                + " 'Cache-Control': 'no-store'}}; });");
        HandlerOutcome outcome = sandbox.handle(bundle, get("/api/h"), null);
        assertThat(((Answered) outcome).headers()).extracting(Header::name)
                .containsExactlyInAnyOrder("Set-Cookie", "Cache-Control", "Content-Type");
        assertThat(header(outcome, "Set-Cookie")).isEqualTo("theme=dark");
    }

    @Test
    void an_unknown_route_or_an_app_without_handler_script_has_no_handler() {
        assertThat(sandbox.handle(app("app.get('/api/a', function () { return {json: 1}; });"), get("/api/b"), null))
                .isInstanceOf(NoHandler.class);
        assertThat(sandbox.handle(app("app.get('/api/a', function () { return {json: 1}; });"),
                new HandlerRequest("POST", "/api/a", Map.of(), Map.of(), "", null), null)).isInstanceOf(NoHandler.class);
        Bundle noScript = TestBundles.bundle("site", 1, Map.of("public/index.html", "hi"));
        assertThat(sandbox.handle(noScript, get("/api/a"), null)).isInstanceOf(NoHandler.class);
    }

    @Test
    void the_store_keeps_the_newest_items_per_app_between_calls() {
        String script = "app.post('/api/add', function (req) { return {json: store.push('l', {n: req.json.n})}; });"
                + "app.get('/api/all', function () { return {json: store.list('l')}; });"
                + "app.get('/api/bad', function () { try { store.push('no such/name', 1); } catch (e) {"
                + " return {json: e instanceof TypeError}; } });";
        Bundle one = app(script);
        Bundle other = TestBundles.bundle("other", 1, Map.of("server.js", script));
        for (int n = 1; n <= AppStore.MAX_ITEMS + 5; n++) {
            sandbox.handle(one, new HandlerRequest("POST", "/api/add", Map.of(), Map.of("content-type", "application/json"),
                    "{\"n\":" + n + "}", null), null);
        }
        String all = body(sandbox.handle(one, get("/api/all"), null));
        assertThat(all).startsWith("[{\"n\":6},").endsWith(",{\"n\":105}]");
        assertThat(body(sandbox.handle(other, get("/api/all"), null))).isEqualTo("[]");
        assertThat(body(sandbox.handle(one, get("/api/bad"), null))).isEqualTo("true");
    }

    @Test
    void calls_on_many_threads_share_the_compiled_script_safely() throws Exception {
        Bundle bundle = app("var loaded = 0; loaded++;"
                + "app.get('/api/n', function (req) { var s = 0; for (var i = 0; i < 1000; i++) { s += i; }"
                + " return {json: {sum: s, loaded: loaded, q: req.query.q}}; });");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String q = "q" + i;
                results.add(pool.submit(() -> body(sandbox.handle(bundle,
                        new HandlerRequest("GET", "/api/n", Map.of("q", q), Map.of(), "", null), null))));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get()).isEqualTo("{\"sum\":499500,\"loaded\":1,\"q\":\"q" + i + "\"}");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
