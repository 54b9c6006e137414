package dev.qaldy.contract.health;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One process's view of whether an upstream (the control plane) answers, shared by every check that
 * calls it (issue 14: a breaker per check made a person's request the half-open probe).
 * <ul>
 * <li><b>Up</b>: calls are made; a heartbeat probes once nothing answered for {@code heartbeat}.
 * <li><b>Suspect</b>: a call or the heartbeat got no answer and a probe asks at once; callers with a
 * copy answer from it ({@link #inDoubt()}), callers without one still call.
 * <li><b>Failing since T</b>: no calls on behalf of a request ({@link #failing()}); one probe at a
 * time, {@code probeInterval} after the last one ended, until one answers.
 * </ul>
 * No answer makes it suspect, and a failed probe then failing; {@value #ERROR_ANSWERS_IN_A_ROW}
 * error answers in a row turn it failing; any answer turns it up. A failure of a call started before
 * the last turn is ignored. Times are ms of the injected clock; a clock stepping back makes the next
 * probe due at once. Thread-safe.
 */
public final class UpstreamHealth {

    /** The control plane's cheap probe: 200 while the API and its database answer. */
    public static final String CONTROL_PLANE_PROBE = "/api/v1/ping";
    /** With no answer between. */
    public static final int ERROR_ANSWERS_IN_A_ROW = 3;
    /** Longest the prober parks, ms, so a stop is seen. */
    static final long IDLE_MS = 1_000;

    public enum State { UP, SUSPECT, FAILING }

    public enum Failure {
        /** Connection refused or reset, a timeout: the upstream did not answer. */
        NO_ANSWER,
        /** The upstream answered with an error: a 5xx, or its server's own page instead of the API. */
        ERROR_ANSWER
    }

    /** Throws unless the upstream answered as it should. */
    @FunctionalInterface
    public interface Probe {
        void ask() throws Exception;
    }

    /**
     * @param reason the last failure seen while in doubt or failing; null while up
     * @param probes background probes since the view left up
     */
    public record View(State state, Instant since, String reason, long probes) {
    }

    private final String name;
    private final Clock clock;
    private final Duration probeInterval;
    private final long heartbeatMs;
    private final Probe probe;
    private final Logger log;
    private final Object lock = new Object();
    private final List<Runnable> onUp = new CopyOnWriteArrayList<>();
    private final List<Runnable> onFailing = new CopyOnWriteArrayList<>();
    private volatile boolean failing;
    private volatile boolean suspect;
    private volatile long lastAnswerMs;
    /** Whether the upstream ever answered (lastAnswerMs holds the view's start until it does). */
    private volatile boolean everAnswered;
    private Instant suspectSince;
    /** Counts the view's turns; a call remembers the one it started in. */
    private volatile long turns;
    private volatile Thread prober;
    private Instant since;
    private String reason;
    private int errorAnswers;
    private long nextProbeMs;
    private long probes;

    /** A view with no heartbeat. */
    public UpstreamHealth(String name, Clock clock, Duration probeInterval, Probe probe, Logger log) {
        this(name, clock, probeInterval, Duration.ZERO, probe, log);
    }

    /**
     * @param probeInterval how often the probe asks while failing (positive)
     * @param heartbeat     {@code qaldy.health.heartbeat}; zero for no heartbeat
     * @param probe         the background probe, bounded in time by itself
     * @param log           turns at INFO, failed probes at FINE
     */
    public UpstreamHealth(String name, Clock clock, Duration probeInterval, Duration heartbeat, Probe probe, Logger log) {
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.probeInterval = Objects.requireNonNull(probeInterval, "probeInterval");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.log = Objects.requireNonNull(log, "log");
        if (probeInterval.isNegative() || probeInterval.isZero()) {
            throw new IllegalArgumentException("the probe interval must be positive: " + probeInterval);
        }
        if (heartbeat == null || heartbeat.isNegative()) {
            throw new IllegalArgumentException("qaldy.health.heartbeat must be zero or positive: " + heartbeat);
        }
        this.heartbeatMs = heartbeat.toMillis();
        this.since = clock.instant();
        this.lastAnswerMs = since.toEpochMilli();
    }

    /** The control plane's view at {@code base} ({@code qaldy.control.url}), probing {@value #CONTROL_PLANE_PROBE}; {@code probeTimeout} positive. */
    public static UpstreamHealth controlPlane(String base, Duration probeInterval, Duration heartbeat, Duration probeTimeout,
            Clock clock, Logger log) {
        if (probeTimeout == null || probeTimeout.isNegative() || probeTimeout.isZero()) {
            throw new IllegalArgumentException("qaldy.health.probe-timeout must be positive: " + probeTimeout);
        }
        URI probe = URI.create(base.trim().replaceAll("/+$", "") + CONTROL_PLANE_PROBE);
        return new UpstreamHealth("control plane", clock, probeInterval, heartbeat, httpGet(probe, probeTimeout), log);
    }

    /** A probe that GETs {@code target} and counts a 2xx as an answer; bounded by {@code timeout} end to end. */
    public static Probe httpGet(URI target, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout).header("Accept", "application/json").GET().build();
        return () -> {
            CompletableFuture<HttpResponse<Void>> exchange = http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
            HttpResponse<Void> response;
            try {
                response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                exchange.cancel(true);
                throw new IOException("no answer from " + target + " within " + timeout);
            } catch (InterruptedException e) {
                exchange.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof java.net.http.HttpTimeoutException) {
                    throw new IOException("no answer from " + target + " within " + timeout, e.getCause());
                }
                throw new IOException(target + ": " + e.getCause(), e.getCause());
            }
            if (response.statusCode() / 100 != 2) {
                throw new IOException(target + " answered HTTP " + response.statusCode());
            }
        };
    }

    public boolean failing() {
        return failing;
    }

    /** True while failing or suspect: a caller with a copy answers from it rather than call. */
    public boolean inDoubt() {
        return failing || suspect;
    }

    public View view() {
        synchronized (lock) {
            return new View(failing ? State.FAILING : suspect ? State.SUSPECT : State.UP, since, reason, probes);
        }
    }

    /** Why a call was not made, for the caller's exception. */
    public String notAsked() {
        synchronized (lock) {
            if (!failing && suspect) {
                return "the " + name + " is in doubt since " + suspectSince + " (" + reason + "); not asked";
            }
            return "the " + name + " has been failing since " + since + " (" + reason + "); not asked";
        }
    }

    /** Runs {@code listener} (quick, not throwing) each time the view turns up. */
    public void onUp(Runnable listener) {
        onUp.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Runs {@code listener} (quick, not throwing) each time the view turns failing, on the thread that
     * turned it: a caller can give up the calls it still waits on, which the view now says are not
     * answered.
     */
    public void onFailing(Runnable listener) {
        onFailing.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Starts one call; report how it ended on the returned {@link Call}. Check {@link #failing()} first. */
    public Call call() {
        return new Call(turns, clock.millis(), Ledger.CURRENT.get());
    }

    /** One call to the upstream; tells the view and the caller's {@link Ledger} how it ended. */
    public final class Call {

        private final long turn;
        private final long startMs;
        private final Ledger ledger;
        private boolean ended;

        private Call(long turn, long startMs, Ledger ledger) {
            this.turn = turn;
            this.startMs = startMs;
            this.ledger = ledger;
        }

        /** The upstream answered (any answer of its API, a 4xx included). */
        public void answered() {
            if (end()) {
                UpstreamHealth.this.answered("a call");
            }
        }

        public void failed(Failure kind, String why) {
            if (end()) {
                UpstreamHealth.this.failed(turn, Objects.requireNonNull(kind, "kind"), why);
            }
        }

        /** The call ended without telling anything of the upstream (the caller's own error). */
        public void abandoned() {
            end();
        }

        private boolean end() {
            if (ended) {
                return false;
            }
            ended = true;
            if (ledger != null) {
                ledger.add(Math.max(0, clock.millis() - startMs));
            }
            return true;
        }
    }

    /**
     * How long ago the upstream last answered this process (a call or a probe), in ms; -1 when it
     * never did. The gate asks the runtime host for it to tell its own partition from an outage.
     */
    public long answeredAgoMs() {
        return everAnswered ? Math.max(0, clock.millis() - lastAnswerMs) : -1;
    }

    private void answered(String how) {
        lastAnswerMs = clock.millis();
        everAnswered = true;
        synchronized (lock) {
            errorAnswers = 0;
            if (suspect && !failing) {
                suspect = false;
                turns++; // calls that failed before this answer say nothing of the upstream since
                reason = null;
                probes = 0;
                log.log(Level.FINE, "{0}: answers ({1}); the call without an answer was its own", new Object[] {name, how});
                return;
            }
            if (!failing) {
                return;
            }
            Instant now = clock.instant();
            log.log(Level.INFO, "{0}: answers again ({1}) after {2} failing; requests ask it again",
                    new Object[] {name, how, Duration.between(since, now)});
            failing = false;
            suspect = false;
            turns++;
            since = now;
            reason = null;
            probes = 0;
        }
        tell(onUp);
    }

    private void tell(List<Runnable> listeners) {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.log(Level.WARNING, name + ": a listener of the view failed", e);
            }
        }
    }

    private void failed(long turn, Failure kind, String why) {
        Thread wake;
        boolean turned = false;
        synchronized (lock) {
            if (turn != turns) {
                return; // started before the view last turned: it says nothing of the upstream since
            }
            if (failing) {
                reason = why;
                return;
            }
            if (kind == Failure.NO_ANSWER) {
                if (suspect) {
                    return;
                }
                suspect = true;
                suspectSince = clock.instant();
                reason = why;
                probes = 0;
                nextProbeMs = suspectSince.toEpochMilli();
                wake = prober;
                log.log(Level.FINE, "{0}: a call got no answer ({1}); a probe asks it at once", new Object[] {name, why});
            } else if (++errorAnswers < ERROR_ANSWERS_IN_A_ROW) {
                return;
            } else {
                turnFailing(clock.instant(), why);
                turned = true;
                wake = prober;
            }
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
        if (turned) {
            tell(onFailing);
        }
    }

    /** The caller holds the lock. */
    private void turnFailing(Instant from, String why) {
        failing = true;
        suspect = false;
        turns++;
        since = from;
        reason = why;
        errorAnswers = 0;
        nextProbeMs = clock.millis();
        log.log(Level.INFO, "{0}: failing since {1} ({2}); requests do not call it and use what is remembered, "
                + "while a background probe asks it every {3}", new Object[] {name, from, why, probeInterval});
    }

    /**
     * One step of the prober: makes the due probe or heartbeat (blocking up to the probe's own bound).
     *
     * @return ms until the next step is wanted (at most {@value #IDLE_MS})
     */
    public long probeIfDue() {
        long interval = probeInterval.toMillis();
        boolean heartbeat;
        long turn;
        Instant started = clock.instant();
        synchronized (lock) {
            heartbeat = !failing && !suspect;
            if (heartbeat) {
                long quiet = started.toEpochMilli() - lastAnswerMs;
                if (heartbeatMs == 0) {
                    return IDLE_MS;
                }
                if (quiet >= 0 && quiet < heartbeatMs) {
                    return Math.min(IDLE_MS, heartbeatMs - quiet);
                }
            } else {
                long wait = nextProbeMs - started.toEpochMilli();
                if (wait > 0 && wait <= interval) {
                    return wait;
                }
                probes++;
            }
            turn = turns;
        }
        boolean turned = false;
        try {
            probe.ask();
            answered(heartbeat ? "the heartbeat" : "a background probe");
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            synchronized (lock) {
                if (heartbeat && turn == turns && !failing && !suspect) {
                    suspect = true;
                    suspectSince = started;
                    reason = "heartbeat: " + e.getMessage();
                    probes = 0;
                    nextProbeMs = clock.millis(); // the probe that decides, at once
                    log.log(Level.FINE, "{0}: the heartbeat got no answer ({1}); a probe asks it at once",
                            new Object[] {name, e.getMessage()});
                } else if (!heartbeat || turn == turns) {
                    if (suspect) {
                        turnFailing(suspectSince, reason + "; probe: " + e.getMessage());
                        turned = true;
                    }
                    if (failing) {
                        reason = "probe: " + e.getMessage();
                        nextProbeMs = clock.millis() + interval; // from the probe's end
                    }
                }
            }
            log.log(Level.FINE, "{0}: a background probe failed: {1}", new Object[] {name, e.toString()});
        }
        if (turned) {
            tell(onFailing);
        }
        synchronized (lock) {
            if (failing || suspect) {
                return Math.max(0, Math.min(IDLE_MS, nextProbeMs - clock.millis()));
            }
            return heartbeatMs == 0 ? IDLE_MS : Math.max(0, Math.min(IDLE_MS, heartbeatMs - (clock.millis() - lastAnswerMs)));
        }
    }

    /**
     * Starts {@link #runProber} on a thread of {@code threads} (the container's managed thread factory);
     * running the returned handle stops it.
     */
    public Runnable startProber(ThreadFactory threads, String name) {
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread thread = threads.newThread(() -> runProber(running::get));
        thread.setName(name);
        thread.start();
        log.log(Level.INFO, "{0}: while it fails, requests do not call it; a background probe asks it every {1} until it answers"
                + (heartbeatMs > 0 ? ", and asks whenever nothing answered for {2} ms" : ""),
                new Object[] {this.name, probeInterval, Long.toString(heartbeatMs)});
        return () -> {
            running.set(false);
            thread.interrupt();
        };
    }

    /** Runs the prober on the calling thread until {@code running} turns false or the thread is interrupted. */
    public void runProber(BooleanSupplier running) {
        prober = Thread.currentThread();
        try {
            while (running.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                long waitMs = probeIfDue();
                if (waitMs > 0) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(Math.min(waitMs, IDLE_MS)));
                }
            }
        } finally {
            prober = null;
        }
    }

    /** The ms the current thread waited on upstream calls since it opened its ledger, for {@code Server-Timing}. */
    public static final class Ledger implements AutoCloseable {

        static final ThreadLocal<Ledger> CURRENT = new ThreadLocal<>();

        private int calls;
        private long waitedMs;

        private Ledger() {
        }

        public static java.util.Optional<Ledger> current() {
            return java.util.Optional.ofNullable(CURRENT.get());
        }

        /** Opens an empty ledger for the current thread, replacing any left open. */
        public static Ledger open() {
            Ledger ledger = new Ledger();
            CURRENT.set(ledger);
            return ledger;
        }

        synchronized void add(long ms) {
            calls++;
            waitedMs += ms;
        }

        public synchronized int calls() {
            return calls;
        }

        public synchronized long waitedMs() {
            return waitedMs;
        }

        /** A {@code Server-Timing} entry (W3C Server Timing): {@code metric;dur=<ms>;desc="<n> calls"}. */
        public synchronized String serverTiming(String metric) {
            return metric + ";dur=" + waitedMs + ";desc=\"" + calls + (calls == 1 ? " call\"" : " calls\"");
        }

        @Override
        public void close() {
            if (CURRENT.get() == this) {
                CURRENT.remove();
            }
        }
    }
}
