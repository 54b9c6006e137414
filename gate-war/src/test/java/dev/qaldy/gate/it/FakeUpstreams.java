package dev.qaldy.gate.it;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.cap.Prices;
import dev.qaldy.contract.keys.CellSigningKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fake control plane and a fake runtime host on loopback ephemeral ports, speaking the
 * internal contract just enough for the gate, and recording what reached them. Its access
 * endpoint can be made to fail (HTTP 503) or hang (accept and never answer) on demand; so can
 * {@code /api/v1/ping}, the gate's background probe.
 */
final class FakeUpstreams {

    /** One request as an upstream saw it; header names lower case. */
    record Seen(String method, String uri, Map<String, List<String>> headers, long bodyBytes) {
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : String.join(",", values);
        }
    }

    static final long ANN = 7;
    /** The one app the fake control plane calls a public site. */
    static final String PUBLIC_SITE = "leaflet";
    /** Visibility questions asked. */
    final java.util.concurrent.atomic.AtomicLong visibilityCalls = new java.util.concurrent.atomic.AtomicLong();
    /** The account every app belongs to unless {@link #account} says otherwise. */
    static final long OWNER = 100;
    static final String GOOD_TICKET = "good-ticket-0123456789";
    /** The token the fake API hands out at {@code POST /api/v1/sessions} (the console's sign-in). */
    static final String CONSOLE_TOKEN = "console-session-token";
    /** The token id the fake control plane lists as signed out before the gate started (until 2099). */
    static final String SIGNED_OUT_BEFORE_START = "it-signed-out-before-start";
    /** Probes of {@code /api/v1/ping} (the gate's background probe while it sees the control plane failing). */
    final java.util.concurrent.atomic.AtomicLong pings = new java.util.concurrent.atomic.AtomicLong();
    /** Sign-out lists asked for (a starting gate loads it once). */
    final java.util.concurrent.atomic.AtomicLong signOutLoads = new java.util.concurrent.atomic.AtomicLong();

    /** How the access endpoint behaves. */
    enum AccessMode {
        /** Answers from {@link #share} and {@link #version}. */
        ANSWER,
        /** HTTP 503, like an API whose database is down. */
        FAIL,
        /** Accepts the request and never answers, until the mode changes. */
        HANG,
        /** The server's own HTML 404 for every path: the control plane's application is not deployed. */
        NOT_DEPLOYED
    }

    private volatile AccessMode accessMode = AccessMode.ANSWER;
    private volatile CountDownLatch hung = new CountDownLatch(1);
    private final Map<String, Map<Long, Boolean>> shares = new ConcurrentHashMap<>();
    private final Map<String, Long> versions = new ConcurrentHashMap<>();

    final Queue<Seen> atControl = new ConcurrentLinkedQueue<>();
    /** {@code /api/v1/slow}: answered 200 once released; while held, its requests wait (at most 30 s). */
    private volatile CountDownLatch slowApi = new CountDownLatch(0);
    /** Requests of {@code /api/v1/slow} waiting now. */
    final AtomicInteger slowWaiting = new AtomicInteger();
    /** Cap state fetches and usage reports, kept apart from {@link #atControl}: the gate makes them in the background. */
    final Queue<Seen> capCalls = new ConcurrentLinkedQueue<>();
    /** Usage report bodies received. */
    final Queue<String> usageReports = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> accounts = new ConcurrentHashMap<>();
    private final Map<Long, CapState> capStates = new ConcurrentHashMap<>();
    private final CellSigningKey cellKey;
    final Queue<Seen> atRuntime = new ConcurrentLinkedQueue<>();
    /** The gate's questions to its runtime host about the control plane (issue 19's witness), apart from app traffic. */
    final Queue<Seen> witnessAsked = new ConcurrentLinkedQueue<>();
    private final String serviceToken;
    private final String runtimeToken;
    private final String annToken;
    private HttpServer control;
    private HttpServer runtime;

    /**
     * @param serviceToken the gate's credential for the control plane, which the fake control plane wants
     * @param runtimeToken the gate's credential for the runtime host, which the fake runtime host wants
     */
    FakeUpstreams(String serviceToken, String runtimeToken, String annToken, CellSigningKey cellKey) {
        this.serviceToken = serviceToken;
        this.runtimeToken = runtimeToken;
        this.annToken = annToken;
        this.cellKey = cellKey;
    }

    /** Access answers for {@code app} name {@code accountId} as its owner's account. */
    void account(String app, long accountId) {
        accounts.put(app, accountId);
    }

    /**
     * The cap state the fake publishes for its account (fetched by sequence, or on demand); an
     * account without one gets a roomy default (cap 500 cents, nothing spent, sequence 1).
     */
    void capState(CapState state) {
        capStates.put(state.accountId(), state);
    }

    /** A cap state of this month signed with the cell's key. */
    String signed(CapState state) {
        return CapStates.sign(state, cellKey);
    }

    static CapState state(long account, long capCents, long spentMillicents, Prices prices, long sequence) {
        long now = Instant.now().toEpochMilli();
        return new CapState(account, CapState.periodOf(Instant.now()), capCents, spentMillicents, now, prices, now, sequence);
    }

    void start() throws IOException {
        control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        control.createContext("/", this::control);
        control.setExecutor(Executors.newCachedThreadPool());
        control.start();
        runtime = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        runtime.createContext("/", this::runtime);
        runtime.setExecutor(Executors.newCachedThreadPool());
        runtime.start();
    }

    /** Holds {@code /api/v1/slow}'s requests until {@link #releaseSlowApi}. */
    void holdSlowApi() {
        slowApi = new CountDownLatch(1);
    }

    void releaseSlowApi() {
        slowApi.countDown();
    }

    /** Changes how the access endpoint behaves; leaving {@link AccessMode#HANG} lets hung requests go. */
    void accessMode(AccessMode mode) {
        if (mode == AccessMode.HANG) {
            hung = new CountDownLatch(1);
            accessMode = mode;
        } else {
            accessMode = mode;
            hung.countDown();
        }
    }

    /** Whether {@code person} may open {@code app} (an app with any share is known; others are 404 but guestbook). */
    void share(String app, long person, boolean allowed) {
        shares.computeIfAbsent(app, a -> new ConcurrentHashMap<>()).put(person, allowed);
    }

    /** The sharing version answers about {@code app} carry. */
    void version(String app, long version) {
        versions.put(app, version);
    }

    /** How many access questions reached the fake. */
    long accessCalls() {
        return atControl.stream().filter(s -> s.uri().startsWith("/api/v1/internal/access")).count();
    }

    int controlPort() {
        return control.getAddress().getPort();
    }

    int runtimePort() {
        return runtime.getAddress().getPort();
    }

    void stopControl() {
        control.stop(0);
    }

    /** Closes the runtime host's port: connections to it are refused from now on. */
    void stopRuntime() {
        runtime.stop(0);
    }

    void stop() {
        hung.countDown();
        control.stop(0);
        runtime.stop(0);
    }

    private void control(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        if (path.equals("/api/v1/internal/cap-states") || path.equals("/api/v1/internal/usage")) {
            cap(ex, path);
            return;
        }
        if (path.equals("/api/v1/internal/signed-out-sessions")
                && serviceToken.equals(ex.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            signOutLoads.incrementAndGet();
            json(ex, 200, "{\"sessions\":[{\"jti\":\"" + SIGNED_OUT_BEFORE_START + "\",\"exp\":4070908800}],\"next\":1,\"more\":false}");
            return;
        }
        if (path.startsWith("/api/v1/internal/apps/") && path.endsWith("/visibility")) {
            visibility(ex, path.substring("/api/v1/internal/apps/".length(), path.length() - "/visibility".length()));
            return;
        }
        if (path.equals("/api/v1/internal/sharing-changes")) { // issue 3: the gates' pull, kept apart from atControl
            sharingChanges(ex);
            return;
        }
        if (path.equals("/api/v1/slow")) { // issue 14: an API call that waits, kept apart from atControl
            slowWaiting.incrementAndGet();
            try {
                await(slowApi, 30_000);
            } finally {
                slowWaiting.decrementAndGet();
            }
            json(ex, 200, "{\"slow\":true}");
            return;
        }
        if (path.equals("/api/v1/ping")) { // issue 14: the gate's background probe, kept apart from atControl
            ping(ex);
            return;
        }
        Seen seen = record(ex, atControl);
        if (path.startsWith("/api/v1/internal/") && !serviceToken.equals(ex.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            json(ex, 401, "{\"status\":401}");
        } else if (path.equals("/api/v1/internal/access")) {
            Map<String, String> query = query(ex.getRequestURI().getRawQuery());
            String app = query.get("app");
            long person = Long.parseLong(query.get("person"));
            AccessMode mode = settledMode();
            if (mode == AccessMode.NOT_DEPLOYED) {
                notDeployed(ex);
                return;
            }
            if (mode != AccessMode.ANSWER) {
                json(ex, 503, "{\"status\":503}");
                return;
            }
            Map<Long, Boolean> shared = shares.get(app);
            switch (app) {
                case "guestbook" -> json(ex, 200, "{\"app\":\"guestbook\",\"personId\":" + person + ",\"decision\":\""
                        + (person == ANN ? "allow" : "deny") + "\",\"sharingVersion\":3,\"accountId\":" + OWNER + "}");
                case "broken" -> json(ex, 500, "{\"status\":500}");
                case "locked" -> json(ex, 403, "{\"status\":403}");
                default -> {
                    if (shared == null) {
                        json(ex, 404, "{\"status\":404}");
                    } else {
                        json(ex, 200, "{\"app\":\"" + app + "\",\"personId\":" + person + ",\"decision\":\""
                                + (shared.getOrDefault(person, false) ? "allow" : "deny") + "\",\"sharingVersion\":"
                                + versions.getOrDefault(app, 1L) + ",\"accountId\":" + accounts.getOrDefault(app, OWNER) + "}");
                    }
                }
            }
        } else if (path.equals("/api/v1/internal/sessions/sign-out")) { // the body was read by record()
            if (accessMode == AccessMode.ANSWER) {
                ex.sendResponseHeaders(204, -1);
                ex.close();
            } else {
                json(ex, 503, "{\"status\":503}");
            }
        } else if (path.equals("/api/v1/internal/tickets/redeem")) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (body.contains("\"" + GOOD_TICKET + "\"") && body.contains("\"app\":\"guestbook\"")) {
                json(ex, 200, "{\"token\":\"" + annToken + "\",\"expiresAt\":\"2099-01-01T00:00:00Z\"}");
            } else {
                json(ex, 404, "{\"status\":404}");
            }
        } else if (path.equals("/api/v1/sessions") && "POST".equals(ex.getRequestMethod())) {
            json(ex, 201, "{\"token\":\"" + CONSOLE_TOKEN + "\",\"expiresAt\":\"2099-01-01T00:00:00Z\"}");
        } else {
            ex.getResponseHeaders().add("Location", "http://127.0.0.1:" + controlPort() + "/api/v1/apps/new");
            json(ex, 200, "{\"received\":" + seen.bodyBytes() + "}");
        }
    }

    /**
     * The sharing-changes feed, always empty at change 0 (the fake pushes nothing): 200 while the
     * access endpoint answers, 503 at once while it fails or hangs, so the gate is in touch exactly
     * while this control plane is up.
     */
    private void sharingChanges(HttpExchange ex) throws IOException {
        ex.getRequestBody().readAllBytes();
        if (!serviceToken.equals(ex.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            json(ex, 401, "{\"status\":401}");
        } else if (accessMode == AccessMode.ANSWER) {
            json(ex, 200, "{\"changes\":[],\"next\":0,\"more\":false,\"gap\":false}");
        } else {
            json(ex, 503, "{\"status\":503}");
        }
    }

    /** The mode a request is answered in: while hanging, the one the hang ends in (at most 30 s). */
    private AccessMode settledMode() {
        AccessMode mode = accessMode;
        if (mode == AccessMode.HANG) {
            await(hung, 30_000);
            mode = accessMode;
        }
        return mode;
    }

    /** The console's and the probe's question: as the access endpoint behaves (hangs, fails, is not deployed). */
    private void ping(HttpExchange ex) throws IOException {
        pings.incrementAndGet();
        AccessMode mode = settledMode();
        if (mode == AccessMode.NOT_DEPLOYED) {
            notDeployed(ex);
        } else if (mode == AccessMode.ANSWER) {
            json(ex, 200, "{\"status\":\"ok\"}");
        } else {
            json(ex, 503, "{\"status\":503}");
        }
    }

    /**
     * Whether an app is public, kept apart from {@link #atControl}: {@link #PUBLIC_SITE} is, every app the
     * access endpoint knows is not, others are unknown (404); 503 at once while the access endpoint fails or hangs.
     */
    private void visibility(HttpExchange ex, String app) throws IOException {
        visibilityCalls.incrementAndGet();
        if (!serviceToken.equals(ex.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            json(ex, 401, "{\"status\":401}");
        } else if (accessMode == AccessMode.NOT_DEPLOYED) {
            notDeployed(ex);
        } else if (accessMode != AccessMode.ANSWER || app.equals("broken")) {
            json(ex, 503, "{\"status\":503}");
        } else if (app.equals(PUBLIC_SITE) || app.equals("guestbook") || app.equals("locked") || shares.containsKey(app)) {
            json(ex, 200, "{\"app\":\"" + app + "\",\"kind\":\"" + (app.equals(PUBLIC_SITE) ? "site" : "app")
                    + "\",\"visibility\":\"" + (app.equals(PUBLIC_SITE) ? "public" : "private") + "\",\"sharingVersion\":"
                    + versions.getOrDefault(app, 1L) + ",\"accountId\":" + accounts.getOrDefault(app, OWNER) + "}");
        } else {
            json(ex, 404, "{\"status\":404}");
        }
    }

    /** Cap states and usage: answered while the access endpoint answers, 503 while it fails or hangs. */
    private void cap(HttpExchange ex, String path) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        capCalls.add(new Seen(ex.getRequestMethod(), ex.getRequestURI().toString(), Map.of(), body.length()));
        if (!serviceToken.equals(ex.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            json(ex, 401, "{\"status\":401}");
            return;
        }
        if (accessMode != AccessMode.ANSWER) {
            json(ex, 503, "{\"status\":503}");
            return;
        }
        if (path.equals("/api/v1/internal/usage")) {
            usageReports.add(body);
            Matcher batch = Pattern.compile("\"batchId\"\\s*:\\s*\"([0-9a-f-]{36})\"").matcher(body);
            // Billed to no account: the gate stops counting the batch once it is acknowledged.
            json(ex, 200, "{\"batchId\":\"" + (batch.find() ? batch.group(1) : "") + "\",\"accounts\":[],\"unknownApps\":[]}");
            return;
        }
        Map<String, String> query = query(ex.getRequestURI().getRawQuery());
        StringBuilder states = new StringBuilder();
        if (query.containsKey("account")) {
            long account = Long.parseLong(query.get("account"));
            states.append('"').append(signed(capStates.getOrDefault(account, state(account, 500, 0, new Prices(10, 1), 1)))).append('"');
        } else {
            long since = Long.parseLong(query.getOrDefault("since", "0"));
            capStates.values().stream().filter(state -> state.sequence() > since)
                    .sorted(java.util.Comparator.comparingLong(CapState::sequence))
                    .forEach(state -> states.append(states.length() == 0 ? "" : ",").append('"').append(signed(state)).append('"'));
        }
        json(ex, 200, "{\"states\":[" + states + "],\"more\":false}");
    }

    private void runtime(HttpExchange ex) throws IOException {
        if (ex.getRequestURI().getPath().equals(dev.qaldy.contract.health.ControlPlaneWitness.PATH)) {
            // The gate's question to its witness, not app traffic: this runtime host never heard the (fake) control plane.
            record(ex, witnessAsked);
            json(ex, 200, "{\"state\":\"FAILING\",\"answeredMsAgo\":-1}");
            return;
        }
        Seen seen = record(ex, atRuntime);
        if (!runtimeToken.equals(ex.getRequestHeaders().getFirst("X-Qaldy-Service-Token"))) {
            json(ex, 401, "{\"status\":401}");
            return;
        }
        String path = ex.getRequestURI().getPath();
        Headers out = ex.getResponseHeaders();
        if (path.equals("/big")) {
            out.add("Content-Type", "application/octet-stream");
            ex.sendResponseHeaders(200, 0);
            try (OutputStream body = ex.getResponseBody()) {
                byte[] chunk = new byte[64 * 1024];
                for (int i = 0; i < 80; i++) {
                    body.write(chunk);
                }
            }
            return;
        }
        if (path.equals("/redirect")) {
            out.add("Location", "http://127.0.0.1:" + runtimePort() + "/landed");
            ex.sendResponseHeaders(302, -1);
            ex.close();
            return;
        }
        out.add("Set-Cookie", "qaldy_session=planted; Path=/");
        out.add("Set-Cookie", "app_pref=1; Path=/");
        out.add("Keep-Alive", "timeout=5");
        out.add("Proxy-Authenticate", "Basic");
        out.add("Server", "fake-runtime/1.0");
        json(ex, 200, "{\"received\":" + seen.bodyBytes() + "}");
    }

    private static Seen record(HttpExchange ex, Queue<Seen> into) throws IOException {
        Map<String, List<String>> headers = new TreeMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
        long bytes = 0;
        if (!ex.getRequestURI().getPath().equals("/api/v1/internal/tickets/redeem")) {
            try (InputStream in = ex.getRequestBody()) {
                byte[] buffer = new byte[65536];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    bytes += n;
                }
            }
        }
        Seen seen = new Seen(ex.getRequestMethod(), ex.getRequestURI().toString(), headers, bytes);
        into.add(seen);
        return seen;
    }

    /** What Payara answers on a port whose application failed to deploy. */
    private static void notDeployed(HttpExchange ex) throws IOException {
        byte[] bytes = "<html><body><h1>HTTP Status 404 - Not Found</h1></body></html>".getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "text/html;charset=ISO-8859-1");
        ex.sendResponseHeaders(404, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** JSON as the control plane writes it: problem JSON for every 4xx and 5xx. */
    private static void json(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new TreeMap<>();
        for (String pair : raw == null ? new String[0] : raw.split("&")) {
            int eq = pair.indexOf('=');
            query.put(pair.substring(0, eq), java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return query;
    }

    private static void await(CountDownLatch latch, long millis) {
        try {
            latch.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
