package dev.qaldy.runtime.sites.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.FakeControlPlane;
import dev.qaldy.runtime.testing.FakeControlPlane.Reply;
import dev.qaldy.runtime.testing.FakeHttp;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import dev.qaldy.runtime.testing.TestHost;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The front door end to end, without a container: a real control plane stand-in, real zips, keys and seals. */
class SiteServletTest {

    static final String LIVE = "/api/v1/internal/apps/guestbook/live";
    final KeyPair cell = TestBundles.keys();
    final FakeControlPlane api = new FakeControlPlane();
    @TempDir
    Path dir;
    SiteServlet servlet;
    byte[] zip;

    @BeforeEach
    void start() {
        CellCredentials credentials = TestCredentials.write(dir, cell);
        servlet = new TestHost(api.url(), credentials, dir.resolve("dc-cache"), Clock.systemUTC()).servlet;
        zip = TestBundles.zip(Map.of(
                "qaldy.json", "{\"name\":\"guestbook\",\"kind\":\"app\",\"handler\":\"server.js\"}",
                "public/index.html", "<h1>Guestbook</h1>",
                "public/style.css", "body{}",
                "public/digits.txt", "0123456789",
                "server.js", "app.post('/api/sign', function (req) { return {json: {hi: req.json.name, who: req.person}}; });"
                        + "app.get('/api/loop', function () { for (;;) {} });"
                        + "app.get('/api/boom', function () { throw new Error('secret detail'); });"
                        + "app.get('/api/notes', function () { return {json: qaldy.data.list('notes')}; });"));
        api.roomyCap(cell, java.time.Instant.now(), 1);
        publish(zip, TestBundles.live("guestbook", 1, zip, cell));
    }

    void publish(byte[] bundle, LiveVersion live) {
        api.reply(LIVE, Reply.json(200, "{\"app\":\"guestbook\",\"version\":" + live.version() + ",\"sha256\":\""
                + live.sha256() + "\",\"seal\":\"" + live.seal() + "\",\"accountId\":" + FakeControlPlane.ACCOUNT + "}"));
        api.reply("/api/v1/internal/apps/guestbook/versions/" + live.version() + "/bundle", Reply.zip(bundle));
    }

    @AfterEach
    void stop() {
        api.close();
    }

    static Map<String, String> gate(String... more) {
        Map<String, String> headers = new HashMap<>(Map.of("X-Qaldy-Service-Token", TestCredentials.FROM_GATE,
                "X-Qaldy-App", "guestbook", "X-Qaldy-Person-Email", "ada@example.com", "X-Qaldy-Data-Grant",
                TestCredentials.grant("guestbook")));
        for (int i = 0; i < more.length; i += 2) {
            headers.put(more[i], more[i + 1]);
        }
        return headers;
    }

    FakeHttp.Response send(String method, String uri, Map<String, String> headers, String body) throws Exception {
        FakeHttp.Response response = new FakeHttp.Response();
        servlet.service(FakeHttp.request(method, uri, headers, body.getBytes(StandardCharsets.UTF_8)), response.servlet);
        return response;
    }

    FakeHttp.Response get(String uri, Map<String, String> headers) throws Exception {
        return send("GET", uri, headers, "");
    }

    @Test
    void without_the_service_token_nothing_is_served_and_the_api_is_not_asked() throws Exception {
        Map<String, String> noToken = gate();
        noToken.remove("X-Qaldy-Service-Token");
        FakeHttp.Response missing = get("/", noToken);
        FakeHttp.Response wrong = get("/", gate("X-Qaldy-Service-Token", "guess"));
        for (FakeHttp.Response r : new FakeHttp.Response[] {missing, wrong}) {
            assertThat(r.status).isEqualTo(401);
            assertThat(r.header("Content-Type")).isEqualTo("application/problem+json");
        }
        // Issue 16: the control plane's job credential (or the host's own) is not the gate's.
        for (String other : new String[] {TestCredentials.FROM_CONTROL, TestCredentials.TO_CONTROL}) {
            FakeHttp.Response forbidden = get("/", gate("X-Qaldy-Service-Token", other));
            assertThat(forbidden.status).isEqualTo(403);
            assertThat(forbidden.text()).contains("another of the cell's calls");
        }
        assertThat(api.calls).isEmpty();
    }

    @Test
    void refused_calls_are_logged_once_per_address_and_minute_not_once_each() throws Exception {
        // Issue 16 item 8: each 403 was a WARNING line of its own, so a flood of wrong calls filled the disk.
        Logger logger = Logger.getLogger(TestCredentials.class.getName());
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(MessageFormat.format(record.getMessage(), record.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            for (int i = 0; i < 200; i++) {
                assertThat(get("/", gate("X-Qaldy-Service-Token", i % 2 == 0 ? "guess" : TestCredentials.FROM_CONTROL)).status)
                        .isIn(401, 403);
            }
        } finally {
            logger.removeHandler(handler);
        }
        assertThat(lines).filteredOn(l -> l.contains("refused")).as("the first refusal of the minute, the rest counted: " + lines)
                .hasSizeBetween(1, 2)
                .allMatch(l -> l.startsWith("runtime: refused a request"));
    }

    @Test
    void an_app_name_that_is_not_a_dns_label_is_a_bad_request() throws Exception {
        for (String app : new String[] {"guest.book", "-x", "a_b", "", "x".repeat(64)}) {
            assertThat(get("/", gate("X-Qaldy-App", app)).status).as(app).isEqualTo(400);
        }
        Map<String, String> none = gate();
        none.remove("X-Qaldy-App");
        assertThat(get("/", none).status).isEqualTo(400);
        assertThat(api.calls).isEmpty();
    }

    @Test
    void a_visitor_the_gate_names_no_person_for_gets_static_files_and_never_runs_server_code() throws Exception {
        Map<String, String> visitor = gate();
        visitor.remove("X-Qaldy-Person-Email");
        FakeHttp.Response page = get("/", visitor);
        assertThat(page.status).isEqualTo(200);
        assertThat(page.text()).isEqualTo("<h1>Guestbook</h1>");
        visitor.put("Content-Type", "application/json");
        FakeHttp.Response post = send("POST", "/api/sign", visitor, "{\"name\":\"Eve\"}");
        assertThat(post.status).as("only GET and HEAD for static files").isEqualTo(405);
        FakeHttp.Response handlerPath = get("/api/loop", visitor);
        assertThat(handlerPath.status).as("looked up as a file of public/, not run").isEqualTo(404);
        FakeHttp.Response signedIn = send("POST", "/api/sign", gate("Content-Type", "application/json"), "{\"name\":\"Ada\"}");
        assertThat(signedIn.status).as("a named person still reaches the handlers").isEqualTo(200);
    }

    @Test
    void traversal_is_refused_before_anything_is_fetched() throws Exception {
        for (String uri : new String[] {"/../server.js", "/%2e%2e/server.js", "/a%5c..%5cserver.js", "/x%00.html"}) {
            assertThat(get(uri, gate()).status).as(uri).isEqualTo(400);
        }
        assertThat(api.calls).isEmpty();
    }

    @Test
    void static_files_come_with_type_and_etag_and_revalidate_to_304() throws Exception {
        FakeHttp.Response page = get("/", gate("Accept", "text/html"));
        assertThat(page.status).isEqualTo(200);
        assertThat(page.text()).isEqualTo("<h1>Guestbook</h1>");
        assertThat(page.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
        assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
        String etag = page.header("ETag");
        assertThat(etag).startsWith("\"").hasSize(66);

        FakeHttp.Response again = get("/index.html", gate("If-None-Match", etag));
        assertThat(again.status).isEqualTo(304);
        assertThat(again.body.size()).isZero();

        FakeHttp.Response css = send("HEAD", "/style.css", gate(), "");
        assertThat(css.status).isEqualTo(200);
        assertThat(css.header("Content-Type")).isEqualTo("text/css; charset=utf-8");
        assertThat(css.header("Content-Length")).isEqualTo("6");
        assertThat(css.body.size()).isZero();

        assertThat(api.count("/api/v1/internal/apps/guestbook/versions/1/bundle")).isEqualTo(1);
    }

    @Test
    void a_missing_file_is_a_404_page_and_other_methods_are_not_allowed() throws Exception {
        FakeHttp.Response missing = get("/nope.png", gate("Accept", "text/html,*/*"));
        assertThat(missing.status).isEqualTo(404);
        assertThat(missing.text()).contains("Page not found").contains("<a href=\"/\">Go to the app&#39;s home page</a>");
        assertThat(get("/server.js", gate()).status).isEqualTo(404);
        FakeHttp.Response post = send("POST", "/index.html", gate(), "x");
        assertThat(post.status).isEqualTo(405);
        assertThat(post.header("Allow")).isEqualTo("GET, HEAD");
    }

    @Test
    void api_requests_reach_the_handler_with_the_person() throws Exception {
        FakeHttp.Response signed = send("POST", "/api/sign", gate("Content-Type", "application/json"), "{\"name\":\"Ada\"}");
        assertThat(signed.status).isEqualTo(200);
        assertThat(signed.header("Content-Type")).isEqualTo("application/json");
        assertThat(signed.text()).isEqualTo("{\"hi\":\"Ada\",\"who\":\"ada@example.com\"}");

        FakeHttp.Response unknown = get("/api/nothing", gate("Accept", "text/html"));
        assertThat(unknown.status).isEqualTo(404);
        assertThat(unknown.header("Content-Type")).isEqualTo("application/problem+json");
    }

    @Test
    void a_looping_handler_gets_504_and_a_throwing_one_500_without_details() throws Exception {
        assertThat(get("/api/loop", gate()).status).isEqualTo(504);
        FakeHttp.Response boom = get("/api/boom", gate("Accept", "text/html"));
        assertThat(boom.status).isEqualTo(500);
        assertThat(boom.text()).doesNotContain("secret detail").contains("This app hit an error");
        assertThat(send("POST", "/api/sign", gate("Content-Type", "application/json"), "{\"name\":\"Ada\"}").status)
                .isEqualTo(200);
    }

    /** Sends on a thread with a server-sized stack (512 KiB, below the JVM's usual 1 MiB), as a request thread would. */
    FakeHttp.Response sendOnSmallStack(String body) throws Exception {
        FakeHttp.Response[] response = new FakeHttp.Response[1];
        Exception[] failure = new Exception[1];
        Thread thread = new Thread(null, () -> {
            try {
                response[0] = send("POST", "/api/sign", gate("Content-Type", "application/json", "Accept", "*/*"), body);
            } catch (Exception e) {
                failure[0] = e;
            }
        }, "request", 512 * 1024);
        thread.start();
        thread.join();
        if (failure[0] != null) {
            throw failure[0];
        }
        return response[0];
    }

    @Test
    void a_json_body_nested_past_the_bound_is_the_senders_400_not_the_apps_500_and_the_bound_itself_parses() throws Exception {
        String atBound = "{\"name\":\"Ada\",\"deep\":" + "[".repeat(255) + "]".repeat(255) + "}";
        FakeHttp.Response parsed = sendOnSmallStack(atBound);
        assertThat(parsed.status).as(parsed.text()).isEqualTo(200);
        assertThat(parsed.text()).contains("\"hi\":\"Ada\"");

        FakeHttp.Response deep = sendOnSmallStack("{\"name\":\"Eve\",\"deep\":" + "[".repeat(3000) + "]".repeat(3000) + "}");
        assertThat(deep.status).isEqualTo(400);
        assertThat(deep.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(deep.text()).contains("urn:qaldy:problem:json-too-deep").contains("nested too deeply")
                .doesNotContain("This app hit an error").doesNotContain("Exception");
    }

    @Test
    void a_handler_that_does_not_catch_the_data_apis_outage_gets_a_calm_503_with_retry_after() throws Exception {
        String notes = "/api/v1/internal/app-data/guestbook/notes";
        api.reply(notes, Reply.json(200, "{\"records\":[],\"nextAfter\":null}"));
        assertThat(get("/api/notes", gate()).text()).isEqualTo("{\"records\":[],\"nextAfter\":null}");
        api.reply(notes, Reply.json(503, "{\"title\":\"database unreachable\",\"status\":503}"));
        long start = System.nanoTime();
        FakeHttp.Response down = get("/api/notes", gate("Accept", "application/json"));
        assertThat(down.status).isEqualTo(503);
        assertThat(down.header("Retry-After")).isEqualTo("30");
        assertThat(down.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(down.text()).contains("urn:qaldy:problem:data-unavailable").contains("cannot reach its data")
                .doesNotContain("Exception").doesNotContain("QaldyDataError");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
        assertThat(api.tokens.get(api.calls.lastIndexOf(notes))).as("the host's own credential with data calls, never the gate's")
                .isEqualTo(TestCredentials.TO_CONTROL);
    }

    @Test
    void a_request_body_over_1_mib_is_413() throws Exception {
        assertThat(send("POST", "/api/sign", gate(), "x".repeat(1024 * 1024 + 1)).status).isEqualTo(413);
    }

    @Test
    void nothing_published_is_404_and_an_unreachable_control_plane_is_503_with_retry_after() throws Exception {
        FakeHttp.Response unknown = get("/", gate("X-Qaldy-App", "nobody", "Accept", "text/html"));
        assertThat(unknown.status).isEqualTo(404);
        assertThat(unknown.text()).contains("No such app or nothing published yet");

        api.reply(LIVE, Reply.json(503, "{}"));
        FakeHttp.Response down = get("/", gate("Accept", "text/html"));
        assertThat(down.status).isEqualTo(503);
        assertThat(down.header("Retry-After")).isEqualTo("30");
        assertThat(down.text()).contains("Temporarily unavailable");

        api.reply(LIVE, Reply.hanging());
        assertThat(get("/", gate()).status).isEqualTo(503);
    }

    @Test
    void a_bundle_whose_seal_is_not_the_cells_is_never_served() throws Exception {
        byte[] evil = TestBundles.zip(Map.of("public/index.html", "<h1>evil</h1>"));
        publish(evil, TestBundles.live("guestbook", 2, evil, TestBundles.keys()));
        FakeHttp.Response refused = get("/", gate("Accept", "text/html"));
        assertThat(refused.status).isEqualTo(502);
        assertThat(refused.text()).doesNotContain("evil");
    }

    @Test
    void one_byte_range_is_206_with_its_content_range() throws Exception {
        FakeHttp.Response first = get("/digits.txt", gate("Range", "bytes=2-5"));
        assertThat(first.status).isEqualTo(206);
        assertThat(first.text()).isEqualTo("2345");
        assertThat(first.header("Content-Range")).isEqualTo("bytes 2-5/10");
        assertThat(first.header("Content-Length")).isEqualTo("4");
        assertThat(first.header("Accept-Ranges")).isEqualTo("bytes");
        assertThat(first.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(first.header("ETag")).startsWith("\"");

        FakeHttp.Response open = get("/digits.txt", gate("Range", "bytes=7-"));
        assertThat(open.status).isEqualTo(206);
        assertThat(open.text()).isEqualTo("789");
        assertThat(open.header("Content-Range")).isEqualTo("bytes 7-9/10");

        FakeHttp.Response suffix = get("/digits.txt", gate("Range", "bytes=-3"));
        assertThat(suffix.status).isEqualTo(206);
        assertThat(suffix.text()).isEqualTo("789");

        FakeHttp.Response past = get("/digits.txt", gate("Range", "bytes=8-100"));
        assertThat(past.status).isEqualTo(206);
        assertThat(past.text()).isEqualTo("89");
        assertThat(past.header("Content-Range")).isEqualTo("bytes 8-9/10");
    }

    @Test
    void a_range_past_the_end_is_416_and_several_ranges_get_the_whole_file() throws Exception {
        FakeHttp.Response beyond = get("/digits.txt", gate("Range", "bytes=10-"));
        assertThat(beyond.status).isEqualTo(416);
        assertThat(beyond.header("Content-Range")).isEqualTo("bytes */10");
        assertThat(beyond.text()).doesNotContain("0123");

        FakeHttp.Response several = get("/digits.txt", gate("Range", "bytes=0-1,4-5"));
        assertThat(several.status).isEqualTo(200);
        assertThat(several.text()).isEqualTo("0123456789");

        FakeHttp.Response malformed = get("/digits.txt", gate("Range", "bytes=5-2"));
        assertThat(malformed.status).isEqualTo(200);
        assertThat(malformed.text()).isEqualTo("0123456789");
    }

    @Test
    void head_sends_the_headers_of_the_whole_file_and_no_body_even_with_a_range() throws Exception {
        FakeHttp.Response head = send("HEAD", "/digits.txt", gate("Range", "bytes=0-1"), "");
        assertThat(head.status).isEqualTo(200);
        assertThat(head.header("Content-Length")).isEqualTo("10");
        assertThat(head.header("Accept-Ranges")).isEqualTo("bytes");
        assertThat(head.header("Content-Range")).isNull();
        assertThat(head.body.size()).isZero();
    }

    @Test
    void if_range_with_another_etag_gets_the_whole_file() throws Exception {
        String etag = get("/digits.txt", gate()).header("ETag");
        assertThat(get("/digits.txt", gate("Range", "bytes=0-0", "If-Range", etag)).status).isEqualTo(206);
        FakeHttp.Response stale = get("/digits.txt", gate("Range", "bytes=0-0", "If-Range", "\"old\""));
        assertThat(stale.status).isEqualTo(200);
        assertThat(stale.text()).isEqualTo("0123456789");
    }

    @Test
    void every_answer_from_the_code_says_where_it_came_from() throws Exception {
        assertThat(get("/", gate()).header("X-Qaldy-Code")).isEqualTo("api");
        assertThat(send("POST", "/api/sign", gate(), "{\"name\":\"Ada\"}").header("X-Qaldy-Code")).isEqualTo("api");
    }
}
