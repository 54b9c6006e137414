package dev.qaldy.runtime.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.cap.Prices;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** A control plane on a loopback port that answers what a test tells it to, and records the calls. */
public final class FakeControlPlane implements AutoCloseable {

    /** One canned answer; {@code hang} makes the server never answer (until closed). */
    public record Reply(int status, String contentType, byte[] body, boolean hang) {

        /** JSON, as the API answers: a 4xx or 5xx as its problem JSON ({@code application/problem+json}). */
        public static Reply json(int status, String json) {
            return new Reply(status, status >= 400 ? "application/problem+json" : "application/json",
                    json.getBytes(StandardCharsets.UTF_8), false);
        }

        /** A server's own error page, as Payara Micro answers every path before the API is deployed. */
        public static Reply page(int status, String html) {
            return new Reply(status, "text/html;charset=ISO-8859-1", html.getBytes(StandardCharsets.ISO_8859_1), false);
        }

        public static Reply zip(byte[] zip) {
            return new Reply(200, "application/zip", zip, false);
        }

        public static Reply hanging() {
            return new Reply(0, null, null, true);
        }
    }

    /** The control plane's cheap question, which the host's background probe asks: 200 unless down or told otherwise. */
    public static final String PING = dev.qaldy.contract.health.UpstreamHealth.CONTROL_PLANE_PROBE;
    public final List<String> calls = new CopyOnWriteArrayList<>();
    /** Pings answered 200. */
    public final java.util.concurrent.atomic.AtomicLong pings = new java.util.concurrent.atomic.AtomicLong();
    public final List<String> tokens = new CopyOnWriteArrayList<>();
    private final Map<String, Reply> replies = new ConcurrentHashMap<>();
    /** While set, every call gets this reply instead (an outage). */
    private volatile Reply outage;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    /** An HTTP server on a free loopback port, not started. */
    static HttpServer loopback() {
        try {
            return HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Never answers: waits until {@code closing} opens (at most 30 s), then drops the connection. */
    static void hang(CountDownLatch closing, HttpExchange exchange) {
        try {
            closing.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exchange.close();
    }

    public FakeControlPlane() {
        server = loopback();
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            if (path.equals(PING) && outage == null && !replies.containsKey(PING)) {
                pings.incrementAndGet(); // the host's background probe, kept apart from calls
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
                return;
            }
            calls.add(path);
            tokens.add(String.valueOf(exchange.getRequestHeaders().getFirst("X-Qaldy-Service-Token")));
            Reply down = outage;
            Reply reply = down != null ? down
                    : replies.getOrDefault(path, Reply.json(404, "{\"title\":\"Not found\",\"status\":404}"));
            if (reply.hang()) {
                hang(closing, exchange);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply.body());
            }
        });
        server.setExecutor(executor);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public FakeControlPlane reply(String path, Reply reply) {
        replies.put(path, reply);
        return this;
    }

    /** Answers {@code path} with the default 404 from now on. */
    public FakeControlPlane forget(String path) {
        replies.remove(path);
        return this;
    }

    /** The account that apps published after {@link #roomyCap} or {@link #capState} belong to. */
    public static final long ACCOUNT = 1;
    /** Whether live answers name {@link #ACCOUNT}. */
    private volatile boolean owned;

    /** Publishes {@code live} as the app's live version, with its bundle (owned by {@link #ACCOUNT} once a cap is set). */
    public FakeControlPlane publish(LiveVersion live, byte[] bundle) {
        reply("/api/v1/internal/apps/" + live.app() + "/live", Reply.json(200, "{\"app\":\"" + live.app()
                + "\",\"version\":" + live.version() + ",\"sha256\":\"" + live.sha256() + "\",\"seal\":\""
                + live.seal() + "\"" + (owned ? ",\"accountId\":" + ACCOUNT : "")
                + (live.record() == null ? "" : ",\"record\":\"" + live.record() + "\"") + "}"));
        return reply("/api/v1/internal/apps/" + live.app() + "/versions/" + live.version() + "/bundle", Reply.zip(bundle));
    }

    /** Answers the app's live question with the API's 404 carrying {@code tombstone} (a signed JWS), as for a deleted app. */
    public FakeControlPlane unpublish(String app, String tombstone) {
        return reply("/api/v1/internal/apps/" + app + "/live", Reply.json(404, "{\"type\":\"urn:qaldy:problem:not-found\","
                + "\"title\":\"Not found\",\"status\":404,\"detail\":\"There is no app named " + app + ".\",\"tombstone\":\""
                + tombstone + "\"}"));
    }

    /**
     * Answers every cap-state question (by sequence or by account) with {@code state}, signed with
     * {@code keys}: the spending cap the host sees for {@link #ACCOUNT}; apps published from now on
     * name that account in their live answers.
     */
    public FakeControlPlane capState(CapState state, KeyPair keys) {
        owned = true;
        return reply("/api/v1/internal/cap-states", Reply.json(200, "{\"states\":[\""
                + CapStates.sign(state, CellKeys.signing(keys)) + "\"],\"more\":false}"));
    }

    /** A roomy cap (500 cents, nothing spent) for {@link #ACCOUNT} in {@code at}'s month, at {@code sequence}. */
    public FakeControlPlane roomyCap(KeyPair keys, java.time.Instant at, long sequence) {
        return capState(new CapState(ACCOUNT, CapState.periodOf(at), 500, 0, at.toEpochMilli(), new Prices(10, 1),
                at.toEpochMilli(), sequence), keys);
    }

    /** Every call answers HTTP {@code status} (e.g. 503) until {@link #up()}. */
    public FakeControlPlane down(int status) {
        outage = Reply.json(status, "{\"title\":\"Unavailable\",\"status\":" + status + "}");
        return this;
    }

    public FakeControlPlane up() {
        outage = null;
        return this;
    }

    public long count(String path) {
        return calls.stream().filter(path::equals).count();
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
