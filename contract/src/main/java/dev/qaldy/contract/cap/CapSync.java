package dev.qaldy.contract.cap;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.http.LimitedBytes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The edge's cap calls to the control plane: changed states ({@code GET /api/v1/internal/cap-states?since=S}),
 * one account on demand ({@code ?account=A}, single-flight), and usage batches
 * ({@code POST /api/v1/internal/usage}). Each call carries the service token, is bounded in time and
 * size, and tells {@link UpstreamHealth}; none is made while it says failing. Reports run before
 * refreshes in one thread ({@link #tick}), so a state never overtakes the acknowledgement of the usage
 * it includes.
 */
public final class CapSync {

    public static final String STATES_PATH = "/api/v1/internal/cap-states";
    public static final String USAGE_PATH = "/api/v1/internal/usage";
    public static final String TOKEN_HEADER = "X-Qaldy-Service-Token";
    static final int PAGE = 500;
    /** The rest come with the next refresh. */
    static final int MAX_PAGES = 40;
    /** Bytes. */
    static final long MAX_ANSWER_BYTES = 8L * 1024 * 1024;
    /** After an on-demand fetch failed, the same account is not asked again for this long. */
    static final Duration FETCH_BACKOFF = Duration.ofSeconds(2);

    private final CapKeeper keeper;
    private final URI control;
    private final Supplier<String> serviceToken;
    private final String reporter;
    private final Duration callTimeout;
    private final Duration fetchTimeout;
    private final Clock clock;
    private final Logger log;
    private final UpstreamHealth health;
    private final HttpClient http;
    private final Map<Long, CompletableFuture<Boolean>> fetching = new ConcurrentHashMap<>();
    private final Map<Long, Long> fetchFailedAt = new ConcurrentHashMap<>();
    private final AtomicBoolean reachable = new AtomicBoolean(true);
    private long nextReportMs;
    private long nextRefreshMs;

    /**
     * @param serviceToken read at each call; it may appear later
     * @param reporter     who reports usage (e.g. {@code gate})
     * @param callTimeout  bound on one background call, end to end
     * @param fetchTimeout bound on an on-demand fetch, which a request waits for
     */
    public CapSync(CapKeeper keeper, URI control, Supplier<String> serviceToken, String reporter, Duration callTimeout,
            Duration fetchTimeout, Clock clock, Logger log, UpstreamHealth health) {
        this.keeper = Objects.requireNonNull(keeper, "keeper");
        this.control = URI.create(control.toString().replaceAll("/+$", ""));
        this.serviceToken = Objects.requireNonNull(serviceToken, "serviceToken");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
        this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
        this.fetchTimeout = Objects.requireNonNull(fetchTimeout, "fetchTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.log = Objects.requireNonNull(log, "log");
        this.health = Objects.requireNonNull(health, "health");
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(callTimeout.compareTo(fetchTimeout) < 0 ? callTimeout : fetchTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * One background round: report usage when {@code reportEvery} passed, then refresh when
     * {@code refreshEvery} passed, then flush to disk; only the flush while the control plane is
     * failing. Never throws.
     */
    public void tick(Duration reportEvery, Duration refreshEvery) {
        long now = clock.millis();
        try {
            if (health.failing()) {
                log.log(Level.FINE, "cap: the control plane is failing; reports and refreshes wait");
            } else if (now >= nextReportMs) {
                nextReportMs = now + reportEvery.toMillis();
                report();
            }
            if (!health.failing() && now >= nextRefreshMs) {
                nextRefreshMs = now + refreshEvery.toMillis();
                refresh();
            }
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "cap: a sync round failed", e);
        } finally {
            try {
                keeper.flush();
            } catch (RuntimeException e) {
                log.log(Level.WARNING, "cap: flushing to disk failed", e);
            }
        }
    }

    /** Whether the control plane answered the last call made. */
    public boolean reachable() {
        return reachable.get();
    }

    /** @return true when nothing is left to send or the batch was acknowledged */
    public boolean report() {
        Optional<CapKeeper.UsageBatch> next;
        try {
            next = keeper.nextBatch();
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "cap: cannot seal a usage batch to disk; it is sent once it can be: {0}", e.toString());
            return false;
        }
        if (next.isEmpty()) {
            return true;
        }
        CapKeeper.UsageBatch batch = next.get();
        List<Map<String, Object>> items = new ArrayList<>();
        batch.items().forEach(item -> {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("app", item.app());
            line.put("requests", item.requests());
            line.put("cpuMs", item.cpuMs());
            items.add(line);
        });
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("batchId", batch.batchId().toString());
        body.put("reporter", reporter);
        body.put("items", items);
        Answer answer;
        try {
            answer = call(HttpRequest.newBuilder(URI.create(control + USAGE_PATH))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSONObjectUtils.toJSONString(body))), callTimeout);
        } catch (Unreachable e) {
            log.log(Level.FINE, "cap: usage batch {0} waits for the control plane: {1}", new Object[] {batch.batchId(), e.getMessage()});
            return false;
        }
        if (answer.status() == 200) {
            try {
                Map<String, Object> json = answer.json();
                if (!batch.batchId().toString().equals(json.get("batchId"))) {
                    throw new IllegalStateException("it acknowledges batch " + json.get("batchId"));
                }
                keeper.acknowledged(batch.batchId(), sequences(json));
                log.log(Level.FINE, "cap: usage batch {0} billed ({1} apps)", new Object[] {batch.batchId(), items.size()});
                return true;
            } catch (ParseException | RuntimeException e) {
                log.log(Level.WARNING, "cap: unreadable acknowledgement of usage batch {0}; it is sent again: {1}",
                        new Object[] {batch.batchId(), e.toString()});
                return false;
            }
        }
        if (answer.status() == 401 || answer.status() == 403) {
            log.log(Level.WARNING, "cap: the control plane refused this edge''s service token (HTTP {0}); usage batch {1} waits",
                    new Object[] {answer.status(), batch.batchId()});
            return false;
        }
        if (answer.status() == 400 || answer.status() == 413 || answer.status() == 422) {
            // Refused for good (its problem answer): sending it again cannot help.
            log.log(Level.WARNING, "cap: the control plane refused usage batch {0} (HTTP {1}: {2}); its usage is dropped",
                    new Object[] {batch.batchId(), answer.status(), answer.text()});
            keeper.acknowledged(batch.batchId(), Map.of());
            return true;
        }
        log.log(Level.WARNING, "cap: the control plane answered HTTP {0} to usage batch {1}; it is sent again: {2}",
                new Object[] {answer.status(), batch.batchId(), answer.text()});
        return false;
    }

    /** The sequence per account in an acknowledgement {@code {"accounts":[{"accountId","sequence"}]}}. */
    static Map<Long, Long> sequences(Map<String, Object> json) {
        Map<Long, Long> sequences = new HashMap<>();
        if (json.get("accounts") instanceof List<?> accounts) {
            for (Object entry : accounts) {
                if (entry instanceof Map<?, ?> account && account.get("accountId") instanceof Number id
                        && account.get("sequence") instanceof Number sequence) {
                    sequences.put(id.longValue(), sequence.longValue());
                }
            }
        }
        return sequences;
    }

    /** Fetches the states changed since the highest sequence held, page by page; true when answered. */
    public boolean refresh() {
        long since = keeper.watermark();
        for (int page = 0; page < MAX_PAGES; page++) {
            Answer answer;
            try {
                answer = call(HttpRequest.newBuilder(URI.create(control + STATES_PATH + "?since=" + since + "&limit=" + PAGE))
                        .GET(), callTimeout);
            } catch (Unreachable e) {
                log.log(Level.FINE, "cap: cannot fetch cap states: {0}", e.getMessage());
                return false;
            }
            if (answer.status() != 200) {
                log.log(Level.WARNING, "cap: the control plane answered HTTP {0} to a cap state fetch", answer.status());
                return false;
            }
            Map<String, Object> json;
            try {
                json = answer.json();
            } catch (ParseException | RuntimeException e) {
                log.log(Level.WARNING, "cap: unreadable cap states: {0}", e.toString());
                return false;
            }
            offerAll(json);
            long next = json.get("next") instanceof Number n ? n.longValue() : since;
            if (!Boolean.TRUE.equals(json.get("more")) || next <= since) {
                return true;
            }
            since = next;
        }
        return true;
    }

    /**
     * Fetches one account's state for a waiting request: one call per account at a time, bounded by
     * the fetch timeout, not again within {@link #FETCH_BACKOFF} of a failure.
     *
     * @return true when a state is now held for the account
     */
    public boolean fetch(long accountId) {
        if (accountId <= 0 || health.failing()) {
            return false; // failing: the request gets its answer at once, and no back-off outlives the outage
        }
        long now = clock.millis();
        Long failedAt = fetchFailedAt.get(accountId);
        if (failedAt != null && now >= failedAt && now - failedAt < FETCH_BACKOFF.toMillis()) {
            return false;
        }
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> running = fetching.putIfAbsent(accountId, mine);
        if (running != null) {
            try {
                return running.get(fetchTimeout.toMillis() + 500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException | TimeoutException e) {
                return false;
            }
        }
        boolean held = false;
        try {
            held = fetchNow(accountId);
            return held;
        } finally {
            if (held) {
                fetchFailedAt.remove(accountId);
            } else {
                if (fetchFailedAt.size() > 10_000) {
                    fetchFailedAt.clear(); // a back-off, not a record
                }
                fetchFailedAt.put(accountId, clock.millis());
            }
            fetching.remove(accountId, mine);
            mine.complete(held);
        }
    }

    private boolean fetchNow(long accountId) {
        Answer answer;
        try {
            answer = call(HttpRequest.newBuilder(URI.create(control + STATES_PATH + "?account=" + accountId)).GET(), fetchTimeout);
        } catch (Unreachable e) {
            log.log(Level.FINE, "cap: cannot fetch the cap state of account {0}: {1}", new Object[] {accountId, e.getMessage()});
            return false;
        }
        if (answer.status() != 200) {
            log.log(Level.WARNING, "cap: the control plane answered HTTP {0} for the cap state of account {1}",
                    new Object[] {answer.status(), accountId});
            return false;
        }
        try {
            offerAll(answer.json());
        } catch (ParseException | RuntimeException e) {
            log.log(Level.WARNING, "cap: unreadable cap state of account {0}: {1}", new Object[] {accountId, e.toString()});
            return false;
        }
        return keeper.state(accountId).isPresent();
    }

    private void offerAll(Map<String, Object> json) {
        if (json.get("states") instanceof List<?> states) {
            for (Object state : states) {
                keeper.offer(state instanceof String jws ? jws : null);
            }
        }
    }

    /** Connection error, timeout, 5xx. */
    static final class Unreachable extends Exception {

        private static final long serialVersionUID = 1L;

        Unreachable(String message) {
            super(message);
        }
    }

    /** An answer over {@link #MAX_ANSWER_BYTES}: the API spoke, so it says nothing of its health. */
    static final class TooLarge extends java.io.IOException {

        private static final long serialVersionUID = 1L;

        TooLarge(long limit) {
            super("answer over " + limit + " bytes");
        }
    }

    record Answer(int status, byte[] body) {

        Map<String, Object> json() throws ParseException {
            return JSONObjectUtils.parse(text(), (int) MAX_ANSWER_BYTES);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private Answer call(HttpRequest.Builder builder, Duration bound) throws Unreachable {
        if (health.failing()) {
            throw new Unreachable(health.notAsked());
        }
        String token;
        try {
            token = serviceToken.get();
        } catch (RuntimeException e) {
            throw new Unreachable("no service token: " + e.getMessage());
        }
        HttpRequest request = builder.timeout(bound).header(TOKEN_HEADER, token == null ? "" : token)
                .header("Accept", "application/json").build();
        UpstreamHealth.Call attempt = health.call();
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(request, LimitedBytes.handler(MAX_ANSWER_BYTES, TooLarge::new));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            attempt.failed(UpstreamHealth.Failure.NO_ANSWER, "cap: no answer within " + bound);
            throw failed("no answer within " + bound);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            attempt.abandoned();
            Thread.currentThread().interrupt();
            throw failed("interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof java.io.IOException && !(e.getCause() instanceof TooLarge)) {
                attempt.failed(UpstreamHealth.Failure.NO_ANSWER, "cap: " + e.getCause());
            } else {
                attempt.abandoned();
            }
            throw failed(String.valueOf(e.getCause()));
        }
        if (response.statusCode() >= 500) {
            attempt.failed(UpstreamHealth.Failure.ERROR_ANSWER, "cap: HTTP " + response.statusCode());
            throw failed("HTTP " + response.statusCode());
        }
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT);
        if (!type.startsWith("application/json") && !type.startsWith("application/problem+json")) {
            // A control plane still starting answers the server's own HTML 404 for a few seconds: not the API.
            attempt.failed(UpstreamHealth.Failure.ERROR_ANSWER, "cap: HTTP " + response.statusCode() + " " + type + ", not the API");
            throw failed("HTTP " + response.statusCode() + " " + (type.isEmpty() ? "without a type" : type)
                    + ", not the API (still starting?)");
        }
        attempt.answered();
        if (reachable.compareAndSet(false, true)) {
            log.log(Level.INFO, "cap: the control plane answers again");
        }
        return new Answer(response.statusCode(), response.body());
    }

    private Unreachable failed(String why) {
        if (reachable.compareAndSet(true, false)) {
            log.log(Level.INFO, "cap: the control plane cannot be asked ({0}); the last verified cap states and the usage "
                    + "counted here decide, and usage reports wait", why);
        }
        return new Unreachable(why);
    }
}
