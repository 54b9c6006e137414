package dev.qaldy.runtime.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.sandbox.control.AppDataClient;
import dev.qaldy.runtime.sandbox.control.AppStore;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The control plane's app-scoped data API ({@code /api/v1/internal/app-data/{app}/{collection}[/{id}]})
 * on a loopback port, in memory, with its key check (the cell's service token as in
 * {@link TestCredentials}), its 16 KiB bound and its paging; it can be made to fail (an outage) or hang.
 */
public final class FakeDataApi implements AutoCloseable {

    /** Every call: method, path and query, and the headers that matter. */
    public record Call(String method, String target, String grant, String serviceToken) {
    }

    public final List<Call> calls = new CopyOnWriteArrayList<>();
    /** The view of this fake that {@link #sandbox} wires its data calls to. */
    public dev.qaldy.contract.health.UpstreamHealth health;
    private final Map<String, NavigableMap<Long, String>> collections = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile int outage;
    private volatile boolean hang;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    public FakeDataApi() {
        server = FakeControlPlane.loopback();
        server.createContext("/", this::serve);
        server.setExecutor(executor);
        server.start();
        health = TestHealth.probing(url());
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every call answers {@code status} (e.g. 503) until {@link #up()}. */
    public FakeDataApi down(int status) {
        outage = status;
        return this;
    }

    /** Every call hangs until {@link #up()} or close. */
    public FakeDataApi hang() {
        hang = true;
        return this;
    }

    public FakeDataApi up() {
        outage = 0;
        hang = false;
        return this;
    }

    private synchronized void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals(FakeControlPlane.PING) && !hang) { // the host's background probe, kept apart from calls
            answer(exchange, outage == 0 ? 200 : outage, outage == 0 ? "{\"status\":\"ok\"}" : problem(outage, "down"));
            return;
        }
        String query = exchange.getRequestURI().getRawQuery();
        calls.add(new Call(exchange.getRequestMethod(), path + (query == null ? "" : "?" + query),
                exchange.getRequestHeaders().getFirst(DataGrants.HEADER),
                exchange.getRequestHeaders().getFirst("X-Qaldy-Service-Token")));
        if (hang) {
            FakeControlPlane.hang(closing, exchange);
            return;
        }
        if (outage != 0) {
            answer(exchange, outage, problem(outage, "the control plane is down"));
            return;
        }
        String[] parts = path.startsWith(DataGrants.PATH) ? path.substring(DataGrants.PATH.length()).split("/") : new String[0];
        if (parts.length < 2 || parts.length > 3) {
            answer(exchange, 404, problem(404, "no such path"));
            return;
        }
        String app = parts[0];
        if (!TestCredentials.TO_CONTROL.equals(exchange.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            answer(exchange, 401, problem(401, "the runtime host's X-Qaldy-Service-Token is required"));
            return;
        }
        if (!TestCredentials.GRANTS.allows(app, exchange.getRequestHeaders().getFirst(DataGrants.HEADER), Instant.now())) {
            answer(exchange, 403, problem(403, "a X-Qaldy-Data-Grant for app " + app + " is required"));
            return;
        }
        NavigableMap<Long, String> records = collections.computeIfAbsent(app + "/" + parts[1], k -> new TreeMap<>());
        String method = exchange.getRequestMethod();
        if (parts.length == 2 && method.equals("POST")) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (body.getBytes(StandardCharsets.UTF_8).length > 16 * 1024) {
                answer(exchange, 413, problem(413, "a record is at most 16384 bytes of JSON"));
                return;
            }
            JsonValue value = Json.createReader(new StringReader(body)).readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                answer(exchange, 400, problem(400, "a record is a JSON object"));
                return;
            }
            long id = ids.incrementAndGet();
            records.put(id, value.toString());
            answer(exchange, 201, record(id, parts[1], value.toString()).toString());
        } else if (parts.length == 2 && method.equals("GET")) {
            Map<String, String> params = params(query);
            int limit = Integer.parseInt(params.getOrDefault("limit", "20"));
            boolean newest = "newest".equals(params.get("order"));
            long after = Long.parseLong(params.getOrDefault("after", newest ? Long.toString(Long.MAX_VALUE) : "0"));
            List<Map.Entry<Long, String>> page = new ArrayList<>(
                    (newest ? records.headMap(after, false).descendingMap() : records.tailMap(after, false)).entrySet());
            page = page.subList(0, Math.min(limit, page.size()));
            JsonArrayBuilder array = Json.createArrayBuilder();
            page.forEach(e -> array.add(record(e.getKey(), parts[1], e.getValue())));
            var json = Json.createObjectBuilder().add("records", array);
            if (page.size() == limit) {
                json.add("nextAfter", page.get(page.size() - 1).getKey());
            } else {
                json.addNull("nextAfter");
            }
            answer(exchange, 200, json.build().toString());
        } else if (parts.length == 3) {
            long id = Long.parseLong(parts[2]);
            String found = records.get(id);
            if (found == null) {
                answer(exchange, 404, problem(404, "there is no record " + id + " in " + parts[1]));
            } else if (method.equals("GET")) {
                answer(exchange, 200, record(id, parts[1], found).toString());
            } else if (method.equals("PUT")) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                records.put(id, Json.createReader(new StringReader(body)).readObject().toString());
                answer(exchange, 200, record(id, parts[1], records.get(id)).toString());
            } else if (method.equals("DELETE")) {
                records.remove(id);
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            } else {
                answer(exchange, 405, problem(405, "no"));
            }
        } else {
            answer(exchange, 405, problem(405, "no"));
        }
    }

    private static JsonObject record(long id, String collection, String data) {
        return Json.createObjectBuilder().add("id", id).add("collection", collection)
                .add("data", Json.createReader(new StringReader(data)).readObject()).add("createdBy", "server.js")
                .add("createdAt", "2026-11-30T12:00:00Z").add("updatedAt", "2026-11-30T12:00:00Z").build();
    }

    private static String problem(int status, String detail) {
        return Json.createObjectBuilder().add("type", "about:blank").add("status", status).add("detail", detail).build().toString();
    }

    private static Map<String, String> params(String query) {
        Map<String, String> params = new HashMap<>();
        if (query != null) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return params;
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    /** A sandbox whose {@code qaldy.data} reaches this fake (data calls bounded by {@code dataTimeoutMs}). */
    public Sandbox sandbox(long cpuMillis, long dataTimeoutMs) {
        try {
            CellCredentials credentials = TestCredentials.write(Files.createTempDirectory("qaldy-data-test"), TestBundles.keys());
            Duration timeout = Duration.ofMillis(dataTimeoutMs);
            ControlPlaneClient client = new ControlPlaneClient(url(), timeout, timeout, 1 << 20, credentials, health);
            return new Sandbox(cpuMillis, 64L * 1024 * 1024, 20, new AppStore(1 << 20),
                    new AppDataClient(client, credentials, timeout), null, Logger.getLogger(FakeDataApi.class.getName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
