package dev.qaldy.control.schedules.control;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.control.ServiceKeys;
import dev.qaldy.control.schedules.entity.RunQueued;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Sends queued runs to the runtime host, on the server's managed executor: a run queued by a
 * committed transaction at once, and every scheduler tick whatever is still queued or waiting for
 * the cap. For each run: {@link RunAdmission} (no → waiting-for-cap), claim (exactly one
 * dispatcher wins), {@code POST {qaldy.runtime.url}/.qaldy/jobs/{job}} with the service token,
 * {@code X-Qaldy-App} and {@code X-Qaldy-Run}, and the outcome with the handler's log lines.
 * A claim whose commit had no answer (the database went away as it committed) is released at a
 * later tick, so a run the database holds as running but that was never sent is sent after all.
 * A runtime host that cannot be reached (connection refused, no connection in time: the handler
 * never started) leaves the run queued for the next tick, until it has waited
 * {@code qaldy.scheduler.undelivered-max-age} (1 h) since it was queued (issue 14: the soak found
 * webhooks answered 202 whose runs failed while the runtime host restarted, so they never ran); one
 * that answers an error, or stops answering once it has the run, fails it with that reason (the
 * handler may have run, so it is never sent twice). An outcome the database cannot take when the
 * runtime host answers (it went away meanwhile) is kept and recorded once it is back
 * ({@link UnrecordedOutcomes}).
 * <p>
 * At most {@code qaldy.scheduler.dispatch-concurrency} runs are sent at once: that many workers on
 * the executor, each taking the next run from a bounded backlog of at most {@link #MAX_BACKLOG} ids
 * (issue 9: 10,000 catch-up runs handed to the executor at once held 110 of its threads in HTTP
 * calls, starved the tick that was still queueing runs, and the executor is shared with the builder
 * and its readiness check). A run that does not fit stays queued in the database, the one source
 * of truth: a worker that empties the backlog reads the next queued runs from it, and every tick
 * sends what is still queued or waiting.
 */
@ApplicationScoped
public class RunDispatcher {

    /** Most queued or waiting runs read per tick. */
    static final int BATCH = 50;
    /** Most run ids kept in memory waiting for a free worker; more wait in the database. */
    static final int MAX_BACKLOG = 1_000;
    /** Most bytes read of the runtime host's answer. */
    static final int MAX_ANSWER_BYTES = 256 * 1024;

    @Resource
    ManagedExecutorService executor;

    @Inject
    RunQueue queue;

    @Inject
    RunAdmission admission;

    @Inject
    UnrecordedOutcomes unrecorded;

    @Inject
    ServiceKeys keys;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.url", defaultValue = "http://127.0.0.1:8082")
    String runtimeUrl;

    @Inject
    @ConfigProperty(name = "qaldy.scheduler.job-timeout", defaultValue = "PT30S")
    Duration jobTimeout;

    @Inject
    @ConfigProperty(name = "qaldy.scheduler.dispatch-concurrency", defaultValue = "4")
    int concurrency;

    /** How long a run waits in the queue for a runtime host that cannot be reached before it fails. */
    @Inject
    @ConfigProperty(name = "qaldy.scheduler.undelivered-max-age", defaultValue = "PT1H")
    Duration undeliveredMaxAge;

    /** Runs in the backlog or being sent by this process: only saves work, never decides who runs (the claim does). */
    private final Set<Long> known = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<Long> backlog = new LinkedBlockingQueue<>(MAX_BACKLOG);
    private final AtomicInteger workers = new AtomicInteger();
    /** A queued run found no room in the backlog: workers read the queue again once it is empty. */
    private final AtomicBoolean overflow = new AtomicBoolean();
    /** While a tick queues runs, no run is started (see {@link #whileQueueing}). */
    private final AtomicInteger holds = new AtomicInteger();
    private HttpClient http;

    @PostConstruct
    void start() {
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** A run was queued and committed: send it now. */
    void queued(@Observes(during = TransactionPhase.AFTER_SUCCESS) RunQueued run) {
        submit(run.runId());
    }

    /**
     * Hands the oldest queued or waiting runs (at most {@link #BATCH}) to the workers, and fails
     * runs whose sender stopped.
     *
     * @return how many runs were put in the backlog
     */
    public int dispatchPending() {
        int recorded = unrecorded.recordAll(queue); // before stale runs are failed: these have their outcome
        if (recorded > 0) {
            log.log(Level.INFO, "scheduler: recorded {0} run outcomes the database missed while it was away", recorded);
        }
        queue.failStale(clock.instant().minus(jobTimeout.multipliedBy(2)).minusSeconds(30));
        int submitted = 0;
        for (long id : queue.dispatchable(BATCH)) {
            if (submit(id)) {
                submitted++;
            }
        }
        return submitted;
    }

    /**
     * Runs {@code queueing} (a scheduler tick firing schedules) with sending held back: runs queued
     * meanwhile wait in the backlog and the queue, and workers sending a run finish it and pause.
     * After an outage the tick queues 10,000 catch-up runs; sending them at the same time took the
     * CPU and the database from it (issue 9). Sending resumes when {@code queueing} returns or fails.
     *
     * @return what {@code queueing} returned
     */
    public <T> T whileQueueing(Supplier<T> queueing) {
        holds.incrementAndGet();
        try {
            return queueing.get();
        } finally {
            holds.decrementAndGet();
            startWorkers();
        }
    }

    /** Puts a run in the backlog and makes sure workers run; false when it is known already or there is no room. */
    boolean submit(long runId) {
        if (!known.add(runId)) {
            return false;
        }
        if (!backlog.offer(runId)) {
            known.remove(runId);
            overflow.set(true);
            log.log(Level.FINE, "scheduler: backlog full; run {0} waits in the queue", runId);
            return false;
        }
        startWorkers();
        return true;
    }

    /** Starts workers on the executor until {@code concurrency} run or the executor refuses. */
    private void startWorkers() {
        int limit = Math.max(1, concurrency);
        while ((!backlog.isEmpty() || overflow.get()) && holds.get() == 0) {
            int running = workers.get();
            if (running >= limit) {
                return;
            }
            if (!workers.compareAndSet(running, running + 1)) {
                continue;
            }
            try {
                executor.execute(this::work);
            } catch (RejectedExecutionException e) {
                workers.decrementAndGet();
                log.log(Level.FINE, "scheduler: executor busy; queued runs wait for the next tick");
                return;
            }
        }
    }

    /** One worker: sends runs from the backlog one after another, reading more from the queue after an overflow. */
    private void work() {
        try {
            while (holds.get() == 0) {
                Long runId = backlog.poll();
                if (runId == null && overflow.getAndSet(false)) {
                    refill();
                    runId = backlog.poll();
                }
                if (runId == null) {
                    return;
                }
                try {
                    dispatch(runId);
                } catch (RuntimeException e) {
                    log.log(Level.WARNING, "scheduler: run {0} not dispatched now (database down?): {1}",
                            new Object[] {runId, e.toString()});
                } finally {
                    known.remove(runId);
                }
            }
        } finally {
            workers.decrementAndGet();
            if (!backlog.isEmpty() || overflow.get()) {
                startWorkers(); // a run added while this worker was leaving
            }
        }
    }

    /**
     * Reads the oldest queued runs into the backlog, as many as fit; when the queue gave as many as
     * asked and some were new, there may be more: the next worker to empty the backlog reads again.
     */
    private void refill() {
        List<Long> ids;
        try {
            ids = queue.queued(MAX_BACKLOG);
        } catch (RuntimeException e) {
            log.log(Level.FINE, "scheduler: cannot read the run queue now; the next tick will: {0}", e.toString());
            return;
        }
        int added = 0;
        for (long id : ids) {
            if (!known.add(id)) {
                continue;
            }
            if (!backlog.offer(id)) {
                known.remove(id);
                overflow.set(true);
                return;
            }
            added++;
        }
        if (ids.size() >= MAX_BACKLOG && added > 0) {
            overflow.set(true);
        }
    }

    /** Admission, claim, send, record: one run, on an executor thread. */
    void dispatch(long runId) {
        String app = queue.pendingApp(runId).orElse(null);
        if (app == null) {
            return;
        }
        if (!admission.mayRun(app)) {
            queue.waitForCap(runId);
            log.log(Level.FINE, "scheduler: run {0} of {1} waits for the spending cap", new Object[] {runId, app});
            return;
        }
        long token = ThreadLocalRandom.current().nextLong();
        RunQueue.Claimed claimed;
        try {
            claimed = queue.claim(runId, token).orElse(null);
        } catch (RuntimeException e) {
            keepRelease(runId, token, e);
            return;
        }
        if (claimed == null) {
            return;
        }
        Outcome outcome = send(claimed);
        String lines = String.join("; ", outcome.log());
        if (!outcome.delivered()) {
            boolean again;
            try {
                again = queue.undelivered(runId, lines, undeliveredMaxAge);
            } catch (RuntimeException e) {
                keep(runId, q -> q.undelivered(runId, lines, undeliveredMaxAge), "not delivered", e);
                return;
            }
            log.log(Level.INFO, "scheduler: run {0} of {1} job {2} not delivered ({3}); {4}", new Object[] {runId, claimed.app(),
                    claimed.job(), lines, again ? "queued for the next tick" : "failed, too old"});
            return;
        }
        try {
            queue.finish(runId, outcome.succeeded(), outcome.log());
        } catch (RuntimeException e) {
            keep(runId, q -> q.finish(runId, outcome.succeeded(), outcome.log()), outcome.succeeded() ? "succeeded" : "failed", e);
            return;
        }
        log.log(outcome.succeeded() ? Level.FINE : Level.INFO, "scheduler: run {0} of {1} job {2} ({3}) {4}",
                new Object[] {runId, claimed.app(), claimed.job(), claimed.actor(), outcome.succeeded() ? "succeeded" : "failed"});
    }

    /**
     * A claim that failed may still have been written: the database committed it and went away
     * before it answered. The run was not sent, so its release is kept and written at a later tick
     * ({@link UnrecordedOutcomes}); it changes nothing when the claim never reached the database.
     */
    private void keepRelease(long runId, long token, RuntimeException why) {
        if (unrecorded.keep(runId, q -> q.release(runId, token))) {
            log.log(Level.WARNING, "scheduler: run {0} not sent: the database went away while it was being claimed ({1});"
                    + " if the claim was written, the run is queued again once the database answers", new Object[] {runId, why.toString()});
        } else {
            log.log(Level.WARNING, "scheduler: run {0} not sent: the database went away while it was being claimed ({1}), and {2}"
                    + " outcomes wait already; if the claim was written, the run will be failed as stale",
                    new Object[] {runId, why.toString(), unrecorded.size()});
        }
    }

    /** An outcome the database could not take now: kept and recorded at a later tick ({@link UnrecordedOutcomes}). */
    private void keep(long runId, Consumer<RunQueue> record, String outcome, RuntimeException why) {
        if (unrecorded.keep(runId, record)) {
            log.log(Level.WARNING, "scheduler: run {0} {1}, but its outcome could not be recorded now (database down?): {2};"
                    + " recorded at a later tick once the database answers", new Object[] {runId, outcome, why.toString()});
        } else {
            log.log(Level.WARNING, "scheduler: run {0} {1}, but its outcome could not be recorded now ({2}) and {3} outcomes"
                    + " wait already; it will be failed as stale", new Object[] {runId, outcome, why.toString(), unrecorded.size()});
        }
    }

    /** How a run ended, with the lines for its log; not {@code delivered} when the handler never started. */
    record Outcome(boolean succeeded, boolean delivered, List<String> log) {

        Outcome(boolean succeeded, List<String> log) {
            this(succeeded, true, log);
        }

        static Outcome undelivered(String why) {
            return new Outcome(false, false, List.of(why));
        }
    }

    Outcome send(RunQueue.Claimed run) {
        JsonObjectBuilder body = Json.createObjectBuilder().add("runId", run.runId()).add("tick", run.tick().toString())
                .add("actor", run.actor()).add("job", run.job());
        if (run.payload() != null) {
            body.add("payload", run.payload());
        } else {
            body.addNull("payload");
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(runtimeUrl.replaceAll("/+$", "") + "/.qaldy/jobs/" + run.job()))
                .timeout(jobTimeout)
                .header("Content-Type", "application/json")
                .header(ServiceDirection.HEADER, keys.secret(ServiceDirection.CONTROL_TO_RUNTIME))
                .header(DataGrants.HEADER, keys.grants().map(grants -> grants.current(run.app(), clock.instant())).orElse(""))
                .header("X-Qaldy-App", run.app())
                .header("X-Qaldy-Run", Long.toString(run.runId()))
                .POST(HttpRequest.BodyPublishers.ofString(body.build().toString()))
                .build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (ConnectException | HttpConnectTimeoutException e) {
            return Outcome.undelivered("the runtime host could not be reached: " + e);
        } catch (IOException e) {
            return new Outcome(false, List.of("the runtime host could not be reached or did not answer: " + e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, List.of("interrupted while waiting for the runtime host"));
        }
        return read(response.statusCode(), response.body());
    }

    /** Reads the runtime host's answer: 200 {@code {outcome, log[], error}}, or an error status with problem JSON. */
    static Outcome read(int status, byte[] body) {
        JsonObject json = parse(body);
        if (status != 200) {
            String detail = json != null && json.get("detail") instanceof JsonString d ? ": " + d.getString() : "";
            return new Outcome(false, List.of("the runtime host answered HTTP " + status + detail));
        }
        if (json == null) {
            return new Outcome(false, List.of("the runtime host answered something that is not the job contract"));
        }
        List<String> lines = new ArrayList<>();
        if (json.get("log") instanceof JsonArray array) {
            for (JsonValue line : array) {
                lines.add(line instanceof JsonString text ? text.getString() : line.toString());
            }
        }
        boolean succeeded = "succeeded".equals(json.getString("outcome", ""));
        if (!succeeded) {
            lines.add("failed: " + json.getString("error", "the job handler failed"));
        }
        return new Outcome(succeeded, lines);
    }

    private static JsonObject parse(byte[] body) {
        if (body == null || body.length == 0 || body.length > MAX_ANSWER_BYTES) {
            return null;
        }
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            JsonValue value = reader.readValue();
            return value.getValueType() == JsonValue.ValueType.OBJECT ? value.asJsonObject() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
