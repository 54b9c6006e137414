package dev.qaldy.contract.cap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.keys.CellKeys;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The edge's calls to the control plane: fetching by sequence, on demand, and reporting usage until acknowledged. */
class CapSyncTest {

    static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");
    final KeyPair cell = CellKeys.generate();
    final MovableClock clock = new MovableClock(NOW);
    final Logger log = Logger.getAnonymousLogger();
    /** The process's view of the control plane; its probe answers when {@link #probeAnswers} says so. */
    volatile boolean probeAnswers = true;
    final UpstreamHealth health = new UpstreamHealth("control plane", clock, Duration.ofMillis(500), () -> {
        if (!probeAnswers) {
            throw new java.io.IOException("no answer");
        }
    }, log);
    final CapKeeper keeper = new CapKeeper(CellKeys.published(cell), clock, Duration.ofMinutes(2), null, log, 100);
    final Queue<String> calls = new ConcurrentLinkedQueue<>();
    final Map<String, Reply> replies = new ConcurrentHashMap<>();
    final ExecutorService pool = Executors.newCachedThreadPool();
    volatile CountDownLatch hold;
    HttpServer control;

    record Reply(int status, String body, String type) {

        Reply(int status, String body) {
            this(status, body, status < 300 ? "application/json" : "application/problem+json");
        }
    }

    @AfterEach
    void stop() {
        if (control != null) {
            control.stop(0);
        }
        pool.shutdownNow();
    }

    String signed(long account, long sequence, long spent) {
        return CapStates.sign(new CapState(account, "2026-03", 100, spent, NOW.toEpochMilli(), new Prices(50, 1),
                NOW.toEpochMilli(), sequence), CellKeys.signing(cell));
    }

    CapSync sync() throws IOException {
        control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        control.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String key = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            calls.add(key + (body.isEmpty() ? "" : " " + body) + " token=" + exchange.getRequestHeaders().getFirst(CapSync.TOKEN_HEADER));
            CountDownLatch wait = hold;
            if (wait != null) {
                try {
                    wait.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Reply reply = replies.entrySet().stream().filter(e -> key.startsWith(e.getKey())).map(Map.Entry::getValue)
                    .findFirst().orElse(new Reply(404, "{}"));
            if (reply.body().contains("$BATCH")) {
                java.util.regex.Matcher id = java.util.regex.Pattern.compile("\"batchId\":\"([^\"]+)\"").matcher(body);
                reply = new Reply(reply.status(), reply.body().replace("$BATCH", id.find() ? id.group(1) : ""));
            }
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", reply.type());
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        control.setExecutor(pool);
        control.start();
        return new CapSync(keeper, URI.create("http://127.0.0.1:" + control.getAddress().getPort() + "/"), () -> "secret",
                "gate", Duration.ofSeconds(2), Duration.ofMillis(500), clock, log, health);
    }

    @Test
    void changed_states_are_fetched_page_by_page_from_the_highest_sequence_held() throws Exception {
        CapSync sync = sync();
        replies.put("GET /api/v1/internal/cap-states?since=0&", new Reply(200,
                "{\"states\":[\"" + signed(7, 3, 0) + "\",\"" + signed(8, 4, 0) + "\"],\"next\":4,\"more\":true}"));
        replies.put("GET /api/v1/internal/cap-states?since=4&", new Reply(200,
                "{\"states\":[\"" + signed(7, 6, 100) + "\",\"not.a.state\"],\"next\":9,\"more\":false}"));
        assertThat(sync.refresh()).isTrue();
        assertThat(keeper.state(7).orElseThrow().sequence()).isEqualTo(6);
        assertThat(keeper.state(8).orElseThrow().sequence()).isEqualTo(4);
        assertThat(calls).hasSize(2).allMatch(c -> c.endsWith("token=secret"));

        calls.clear();
        replies.clear();
        replies.put("GET /api/v1/internal/cap-states?since=6&", new Reply(200, "{\"states\":[],\"more\":false}"));
        assertThat(sync.refresh()).isTrue();
        assertThat(calls).hasSize(1);
    }

    @Test
    void usage_goes_out_with_the_same_batch_id_until_the_control_plane_acknowledges_it() throws Exception {
        CapSync sync = sync();
        keeper.offer(signed(7, 3, 0));
        keeper.count(7, "guestbook", 4, 2);
        replies.put("POST /api/v1/internal/usage", new Reply(503, "{}"));
        assertThat(sync.report()).isFalse();
        assertThat(sync.reachable()).isFalse();
        assertThat(sync.report()).isFalse();
        List<String> sent = calls.stream().toList();
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).isEqualTo(sent.get(1)).contains("\"reporter\":\"gate\"")
                .contains("\"items\":[{\"app\":\"guestbook\",\"requests\":4,\"cpuMs\":2}]");

        replies.put("POST /api/v1/internal/usage", new Reply(200,
                "{\"batchId\":\"$BATCH\",\"accounts\":[{\"accountId\":7,\"sequence\":5}],\"unknownApps\":[]}"));
        assertThat(sync.report()).isTrue();
        assertThat(sync.reachable()).isTrue();
        assertThat(calls).hasSize(3);
        assertThat(keeper.held().get(0).unbilledRequests()).as("counted until a state of sequence 5").isEqualTo(4);
        assertThat(sync.report()).as("nothing left").isTrue();
        assertThat(calls).hasSize(3);
        keeper.offer(signed(7, 5, 4 * 50 + 2));
        assertThat(keeper.held().get(0).unbilledRequests()).isZero();
    }

    @Test
    void an_acknowledgement_of_another_batch_is_not_taken_and_a_refusal_for_good_drops_the_batch() throws Exception {
        CapSync sync = sync();
        keeper.offer(signed(7, 3, 0));
        keeper.count(7, "guestbook", 1, 0);
        replies.put("POST /api/v1/internal/usage", new Reply(200, "{\"batchId\":\"someone-else\",\"accounts\":[]}"));
        assertThat(sync.report()).isFalse();
        assertThat(keeper.held().get(0).pendingBatch()).isNotNull();
        replies.put("POST /api/v1/internal/usage", new Reply(400, "{\"detail\":\"bad\"}"));
        assertThat(sync.report()).isTrue();
        assertThat(keeper.held().get(0).pendingBatch()).isNull();
        assertThat(keeper.held().get(0).unbilledRequests()).isZero();
    }

    @Test
    void a_control_plane_still_starting_answers_html_which_is_not_the_api_and_drops_nothing() throws Exception {
        CapSync sync = sync();
        keeper.offer(signed(7, 3, 0));
        keeper.count(7, "guestbook", 3, 0);
        replies.put("POST /api/v1/internal/usage", new Reply(404, "<html>Not Found</html>", "text/html"));
        replies.put("GET /api/v1/internal/cap-states", new Reply(404, "<html>Not Found</html>", "text/html"));
        assertThat(sync.report()).isFalse();
        assertThat(sync.refresh()).isFalse();
        assertThat(sync.reachable()).isFalse();
        assertThat(keeper.held().get(0).pendingBatch()).as("kept, sent again").isNotNull();
        replies.put("POST /api/v1/internal/usage", new Reply(404, "{\"type\":\"about:blank\",\"status\":404}"));
        assertThat(sync.report()).as("an API without the endpoint: kept too").isFalse();
        assertThat(keeper.held().get(0).unbilledRequests()).isEqualTo(3);
    }

    @Test
    void an_account_is_fetched_on_demand_once_at_a_time_and_not_again_right_after_a_failure() throws Exception {
        CapSync sync = sync();
        replies.put("GET /api/v1/internal/cap-states?account=7", new Reply(200, "{\"states\":[\"" + signed(7, 3, 0) + "\"]}"));
        hold = new CountDownLatch(1);
        Future<Boolean> first = pool.submit(() -> sync.fetch(7));
        Future<Boolean> second = pool.submit(() -> sync.fetch(7));
        Thread.sleep(200);
        hold.countDown();
        assertThat(first.get(3, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(3, TimeUnit.SECONDS)).isTrue();
        assertThat(calls).as("one call for both").hasSize(1);
        hold = null;

        assertThat(sync.fetch(8)).as("404").isFalse();
        assertThat(sync.fetch(8)).as("backing off").isFalse();
        assertThat(calls).hasSize(2);
        clock.move(CapSync.FETCH_BACKOFF);
        sync.fetch(8);
        assertThat(calls).hasSize(3);
        assertThat(sync.fetch(0)).isFalse();
    }

    @Test
    void a_control_plane_that_is_not_there_is_unreachable_and_nothing_changes() {
        CapSync sync = new CapSync(keeper, URI.create("http://127.0.0.1:9"), () -> "secret", "gate", Duration.ofMillis(500),
                Duration.ofMillis(300), clock, log, health);
        keeper.offer(signed(7, 3, 0));
        keeper.count(7, "guestbook", 2, 0);
        assertThat(sync.refresh()).isFalse();
        probeAnswers = false;
        health.probeIfDue(); // the probe a refused connection sets off gets no answer either
        assertThat(health.failing()).as("a refused connection, then the probe: the view says failing").isTrue();
        assertThat(sync.report()).isFalse();
        assertThat(sync.fetch(9)).isFalse();
        assertThat(sync.reachable()).isFalse();
        sync.tick(Duration.ofSeconds(10), Duration.ofSeconds(15));
        assertThat(keeper.state(7).orElseThrow().sequence()).isEqualTo(3);
        assertThat(keeper.held().get(0).unbilledRequests()).isEqualTo(2);
    }

    @Test
    void while_the_view_says_failing_no_call_is_made_and_the_first_round_after_it_turned_up_reports() throws Exception {
        CapSync sync = sync();
        keeper.offer(signed(7, 3, 0));
        keeper.count(7, "guestbook", 2, 0);
        probeAnswers = false;
        health.call().failed(UpstreamHealth.Failure.NO_ANSWER, "a timeout elsewhere");
        health.probeIfDue();

        assertThat(sync.fetch(8)).as("answered at once, without asking").isFalse();
        sync.tick(Duration.ofSeconds(10), Duration.ofSeconds(15));
        assertThat(sync.report()).isFalse();
        assertThat(calls).as("nothing reached the control plane").isEmpty();

        probeAnswers = true;
        clock.move(Duration.ofMillis(500)); // the next probe is due an interval after the last one
        health.probeIfDue();
        assertThat(health.failing()).isFalse();
        replies.put("POST /api/v1/internal/usage", new Reply(200, "{\"batchId\":\"x\",\"accounts\":[]}"));
        sync.tick(Duration.ofSeconds(10), Duration.ofSeconds(15));
        assertThat(calls).as("the round waited for the view, not for the next interval")
                .anyMatch(call -> call.startsWith("POST /api/v1/internal/usage"))
                .anyMatch(call -> call.startsWith("GET /api/v1/internal/cap-states"));
        assertThat(sync.fetch(8)).as("no back-off was left by the outage: asked now (the fake has no such state)").isFalse();
        assertThat(calls).anyMatch(call -> call.contains("account=8"));
    }

    @Test
    void an_error_answer_counts_toward_the_view_and_an_answer_starts_the_count_again() throws Exception {
        CapSync sync = sync();
        replies.put("GET /api/v1/internal/cap-states?since=0&", new Reply(503, "{\"status\":503}"));
        assertThat(sync.refresh()).isFalse();
        assertThat(sync.refresh()).isFalse();
        replies.put("GET /api/v1/internal/cap-states?since=0&", new Reply(200, "{\"states\":[],\"next\":0,\"more\":false}"));
        assertThat(sync.refresh()).isTrue();
        replies.put("GET /api/v1/internal/cap-states?since=0&", new Reply(503, "{\"status\":503}"));
        assertThat(sync.refresh()).isFalse();
        assertThat(sync.refresh()).isFalse();
        assertThat(health.failing()).as("two in a row, not three").isFalse();
        assertThat(sync.refresh()).isFalse();
        assertThat(health.failing()).isTrue();
    }
}
