package dev.qaldy.contract.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.cap.MovableClock;
import dev.qaldy.contract.health.UpstreamHealth.Failure;
import dev.qaldy.contract.health.UpstreamHealth.State;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The view's rules, step by step against a clock the test moves; then the prober thread and the HTTP probe for real. */
class UpstreamHealthTest {

    static final Duration INTERVAL = Duration.ofMillis(500);
    static final Logger LOG = Logger.getAnonymousLogger();
    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    /**
     * Steps: {@code answer}, {@code error} (an error answer), {@code none} (no answer) end a call
     * started just then; {@code start} starts a call kept for {@code late-none} / {@code late-answer}
     * / {@code late-abandon}; {@code probe-ok} / {@code probe-fail} set what the probe finds,
     * {@code probe-slow} makes it take 1 s;
     * {@code tick} is one step of the prober; {@code +N} / {@code -N} move the clock N ms.
     */
    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("an answer keeps it up", "answer", State.UP, 0),
                Arguments.of("one call without an answer makes it suspect: requests still call", "none", State.SUSPECT, 0),
                Arguments.of("more calls without an answer do not decide either", "probe-fail none none none", State.SUSPECT, 0),
                Arguments.of("the probe made at once decides: no answer turns it failing", "probe-fail none tick", State.FAILING, 1),
                Arguments.of("an answer of the probe clears the suspicion (a cold client, a slow moment)", "probe-ok none tick",
                        State.UP, 1),
                Arguments.of("so does an answer of a call", "probe-fail none answer tick", State.UP, 0),
                Arguments.of("two error answers do not", "error error", State.UP, 0),
                Arguments.of("three error answers in a row do", "error error error", State.FAILING, 0),
                Arguments.of("an answer between error answers starts the count again", "error error answer error error", State.UP, 0),
                Arguments.of("an answered call turns a failing view up", "probe-fail none tick answer", State.UP, 1),
                Arguments.of("an error answer while failing keeps it failing", "probe-fail none tick error", State.FAILING, 1),
                Arguments.of("without a heartbeat the prober never probes while up", "tick +5000 tick", State.UP, 0),
                Arguments.of("the first probe is made at once", "probe-fail none tick", State.FAILING, 1),
                Arguments.of("then one every interval, never sooner", "probe-fail none tick +499 tick", State.FAILING, 1),
                Arguments.of("the next one once the interval passed", "probe-fail none tick +500 tick +500 tick", State.FAILING, 3),
                Arguments.of("the interval counts from a slow probe's end", "probe-slow none tick +499 tick", State.FAILING, 1),
                Arguments.of("so a hung upstream gets one probe per timeout + interval", "probe-slow none tick +500 tick", State.FAILING, 2),
                Arguments.of("a probe's answer turns it up", "probe-ok none tick", State.UP, 1),
                Arguments.of("after a failed probe the next one's answer turns it up", "probe-fail none tick +500 probe-ok tick", State.UP, 2),
                Arguments.of("a clock stepping back makes the next probe due at once", "probe-fail none tick -60000 tick", State.FAILING, 2),
                Arguments.of("a failure of a call started before the view turned up is ignored",
                        "probe-fail start none tick probe-ok +500 tick late-none", State.UP, 2),
                Arguments.of("also of one started before a suspicion was cleared", "start none probe-ok tick late-none", State.UP, 1),
                Arguments.of("a call started while up that fails once the view failed keeps it failing",
                        "probe-fail start none tick late-none", State.FAILING, 1),
                Arguments.of("a late answer turns it up", "start none late-answer", State.UP, 0),
                Arguments.of("an abandoned call says nothing", "error error start late-abandon error", State.FAILING, 0),
                Arguments.of("a call counts once", "start late-answer late-none", State.UP, 0));
    }

    /** The same steps on a view with a heartbeat of 1 s: while up, the probe asks once nothing answered for it. */
    static Stream<Arguments> heartbeatRules() {
        return Stream.of(
                Arguments.of("no heartbeat before a quiet second", "probe-ok tick +999 tick", State.UP, 0),
                Arguments.of("the heartbeat asks once nothing answered for a second", "probe-ok +1000 tick", State.UP, 1),
                Arguments.of("and once a second while it answers", "probe-ok +1000 tick +500 tick +500 tick", State.UP, 2),
                Arguments.of("any answer counts as a heartbeat", "probe-ok +900 answer +900 tick", State.UP, 0),
                Arguments.of("a heartbeat without an answer makes it suspect", "probe-fail +1000 tick", State.SUSPECT, 1),
                Arguments.of("and the probe made at once decides", "probe-fail +1000 tick tick", State.FAILING, 2),
                Arguments.of("its answer clears the suspicion", "probe-fail +1000 tick probe-ok tick", State.UP, 2),
                Arguments.of("a slow heartbeat, then the probe: failing within a heartbeat and two probe timeouts",
                        "probe-slow +1000 tick tick", State.FAILING, 2),
                Arguments.of("a call's answer while the heartbeat is out clears it", "probe-fail +1000 tick answer", State.UP, 1),
                Arguments.of("no heartbeat while failing: the probe interval rules", "probe-fail none tick +500 tick", State.FAILING, 2),
                Arguments.of("a clock stepping back makes the heartbeat due at once", "probe-ok -60000 tick", State.UP, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void rule(String name, String steps, State expected, int probesMade) {
        run(Duration.ZERO, name, steps, expected, probesMade);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("heartbeatRules")
    void heartbeatRule(String name, String steps, State expected, int probesMade) {
        run(Duration.ofSeconds(1), name, steps, expected, probesMade);
    }

    private static void run(Duration heartbeat, String name, String steps, State expected, int probesMade) {
        MovableClock clock = new MovableClock(START);
        AtomicBoolean probeAnswers = new AtomicBoolean(false);
        AtomicBoolean probeSlow = new AtomicBoolean(false);
        AtomicInteger probed = new AtomicInteger();
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, heartbeat, () -> {
            probed.incrementAndGet();
            if (probeSlow.get()) {
                clock.move(Duration.ofSeconds(1)); // a probe that times out after 1 s
            }
            if (!probeAnswers.get()) {
                throw new IOException("no answer");
            }
        }, LOG);
        UpstreamHealth.Call kept = null;
        for (String step : steps.split(" ")) {
            switch (step) {
                case "answer" -> health.call().answered();
                case "error" -> health.call().failed(Failure.ERROR_ANSWER, "HTTP 503");
                case "none" -> health.call().failed(Failure.NO_ANSWER, "timeout");
                case "start" -> kept = health.call();
                case "late-none" -> kept.failed(Failure.NO_ANSWER, "timeout");
                case "late-answer" -> kept.answered();
                case "late-abandon" -> kept.abandoned();
                case "probe-ok" -> probeAnswers.set(true);
                case "probe-fail" -> probeAnswers.set(false);
                case "probe-slow" -> probeSlow.set(true);
                case "tick" -> health.probeIfDue();
                default -> clock.move(Duration.ofMillis(Long.parseLong(step)));
            }
        }
        assertThat(health.view().state()).as(name).isEqualTo(expected);
        assertThat(health.failing()).isEqualTo(expected == State.FAILING);
        assertThat(health.inDoubt()).as("in doubt: suspect or failing").isEqualTo(expected != State.UP);
        assertThat(probed.get()).as("probes made").isEqualTo(probesMade);
    }

    @Test
    void a_view_failing_after_a_silent_heartbeat_says_since_the_heartbeat_began_and_that_it_is_in_doubt_before() {
        MovableClock clock = new MovableClock(START);
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, Duration.ofSeconds(1), () -> {
            clock.move(Duration.ofSeconds(1)); // no answer within the probe's 1 s
            throw new IOException("no answer within PT1S");
        }, LOG);
        clock.move(Duration.ofSeconds(1));
        Instant began = clock.instant();
        assertThat(health.probeIfDue()).as("the decisive probe is due at once").isZero();
        assertThat(health.view().state()).isEqualTo(State.SUSPECT);
        assertThat(health.notAsked()).contains("in doubt since " + began).contains("heartbeat");
        health.probeIfDue();
        assertThat(health.view().state()).isEqualTo(State.FAILING);
        assertThat(health.view().since()).as("failing since the silent heartbeat began").isEqualTo(began);
        assertThat(health.notAsked()).contains("failing since " + began);
    }

    @Test
    void the_view_says_since_when_and_why_and_what_the_prober_waits_for() {
        MovableClock clock = new MovableClock(START);
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, () -> {
            throw new IOException("HTTP 503");
        }, LOG);
        clock.move(Duration.ofSeconds(1));
        long failedAt = clock.millis();
        health.call().failed(Failure.NO_ANSWER, "connection refused");
        assertThat(health.view().state()).isEqualTo(State.SUSPECT);
        assertThat(health.view().reason()).isEqualTo("connection refused");
        clock.move(Duration.ofMillis(300)); // the probe starts at once; its answer comes later
        assertThat(health.probeIfDue()).as("ms to the next probe").isEqualTo(INTERVAL.toMillis());
        assertThat(health.view().state()).isEqualTo(State.FAILING);
        assertThat(health.view().since()).as("failing since the call's failure").isEqualTo(Instant.ofEpochMilli(failedAt));
        assertThat(health.notAsked()).contains("control plane").contains(Instant.ofEpochMilli(failedAt).toString())
                .endsWith("not asked");
        assertThat(health.view().reason()).as("the probe's failure is the latest reason").contains("HTTP 503");
        assertThat(health.view().probes()).isEqualTo(1);
        clock.move(Duration.ofMillis(200));
        assertThat(health.probeIfDue()).isEqualTo(300);
    }

    @Test
    void turning_up_tells_the_listeners() {
        MovableClock clock = new MovableClock(START);
        AtomicBoolean answers = new AtomicBoolean(true);
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, () -> {
            if (!answers.get()) {
                throw new IOException("no answer");
            }
        }, LOG);
        AtomicInteger told = new AtomicInteger();
        health.onUp(told::incrementAndGet);
        health.call().answered();
        assertThat(told.get()).as("no turn, no news").isZero();
        health.call().failed(Failure.NO_ANSWER, "timeout");
        health.probeIfDue();
        assertThat(told.get()).as("a suspicion cleared is no turn").isZero();
        answers.set(false);
        health.call().failed(Failure.NO_ANSWER, "timeout");
        health.probeIfDue();
        assertThat(health.failing()).isTrue();
        answers.set(true);
        clock.move(INTERVAL);
        health.probeIfDue();
        assertThat(told.get()).isEqualTo(1);
    }

    @Test
    void turning_failing_tells_the_listeners_once_a_turn_by_a_probe_or_by_error_answers() {
        MovableClock clock = new MovableClock(START);
        AtomicBoolean answers = new AtomicBoolean(false);
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, () -> {
            if (!answers.get()) {
                throw new IOException("no answer");
            }
        }, LOG);
        AtomicInteger told = new AtomicInteger();
        health.onFailing(told::incrementAndGet);
        health.call().failed(Failure.NO_ANSWER, "timeout");
        assertThat(told.get()).as("suspect is no turn").isZero();
        health.probeIfDue();
        assertThat(health.failing()).isTrue();
        assertThat(told.get()).as("the decisive probe turned it").isEqualTo(1);
        clock.move(INTERVAL);
        health.probeIfDue();
        health.call().failed(Failure.NO_ANSWER, "timeout");
        assertThat(told.get()).as("still failing: no new turn").isEqualTo(1);
        answers.set(true);
        clock.move(INTERVAL);
        health.probeIfDue();
        for (int i = 0; i < UpstreamHealth.ERROR_ANSWERS_IN_A_ROW; i++) {
            health.call().failed(Failure.ERROR_ANSWER, "HTTP 503");
        }
        assertThat(health.failing()).isTrue();
        assertThat(told.get()).as("error answers in a row turned it again").isEqualTo(2);
    }

    @Test
    void it_says_how_long_ago_the_upstream_last_answered_and_minus_one_before_it_ever_did() {
        MovableClock clock = new MovableClock(START);
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, () -> { }, LOG);
        clock.move(Duration.ofSeconds(5));
        assertThat(health.answeredAgoMs()).as("the view's start is no answer").isEqualTo(-1);
        health.call().answered();
        clock.move(Duration.ofMillis(1_500));
        assertThat(health.answeredAgoMs()).isEqualTo(1_500);
        health.call().failed(Failure.NO_ANSWER, "timeout");
        clock.move(Duration.ofMillis(500));
        assertThat(health.answeredAgoMs()).as("a failure is no answer").isEqualTo(2_000);
        health.probeIfDue(); // the probe answers
        assertThat(health.answeredAgoMs()).isZero();
    }

    @Test
    void a_ledger_counts_the_calls_of_its_own_thread_and_the_ms_they_took() throws Exception {
        MovableClock clock = new MovableClock(START);
        UpstreamHealth health = new UpstreamHealth("control plane", clock, INTERVAL, () -> { }, LOG);
        health.call().answered(); // no ledger open: counted nowhere
        try (UpstreamHealth.Ledger ledger = UpstreamHealth.Ledger.open()) {
            assertThat(ledger.serverTiming("gate-control")).isEqualTo("gate-control;dur=0;desc=\"0 calls\"");
            UpstreamHealth.Call call = health.call();
            clock.move(Duration.ofSeconds(1));
            call.failed(Failure.NO_ANSWER, "timeout");
            Thread other = new Thread(() -> health.call().answered());
            other.start();
            other.join();
            assertThat(ledger.calls()).as("another thread's call is not this one's").isEqualTo(1);
            assertThat(ledger.waitedMs()).isEqualTo(1_000);
            assertThat(ledger.serverTiming("gate-control")).isEqualTo("gate-control;dur=1000;desc=\"1 call\"");
        }
        UpstreamHealth.Ledger next = UpstreamHealth.Ledger.open();
        health.call().answered();
        assertThat(next.calls()).as("a new ledger starts empty").isEqualTo(1);
        next.close();
    }

    @Test
    void the_prober_thread_wakes_when_the_view_turns_and_stops_when_told() throws Exception {
        CountDownLatch probed = new CountDownLatch(2);
        AtomicBoolean answers = new AtomicBoolean(false);
        UpstreamHealth health = new UpstreamHealth("control plane", Clock.systemUTC(), Duration.ofMillis(50), () -> {
            probed.countDown();
            if (!answers.get() || probed.getCount() > 0) {
                throw new IOException("not yet");
            }
        }, LOG);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread prober = new Thread(() -> health.runProber(running::get), "prober");
        prober.start();
        try {
            answers.set(true);
            health.call().failed(Failure.NO_ANSWER, "timeout");
            assertThat(probed.await(10, TimeUnit.SECONDS)).as("probed twice, in the background").isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (health.failing() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(health.failing()).as("the probe's answer turned it up").isFalse();
        } finally {
            running.set(false);
            prober.interrupt();
            prober.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(prober.isAlive()).isFalse();
    }

    @Test
    void the_http_probe_counts_a_2xx_as_an_answer_and_is_bounded() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        CountDownLatch release = new CountDownLatch(1);
        server.createContext("/ok", ex -> {
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.createContext("/down", ex -> {
            ex.sendResponseHeaders(503, -1);
            ex.close();
        });
        server.createContext("/hang", ex -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            UpstreamHealth.httpGet(URI.create(base + "/ok"), Duration.ofSeconds(2)).ask();
            assertThatThrownBy(() -> UpstreamHealth.httpGet(URI.create(base + "/down"), Duration.ofSeconds(2)).ask())
                    .isInstanceOf(IOException.class).hasMessageContaining("HTTP 503");
            long start = System.nanoTime();
            assertThatThrownBy(() -> UpstreamHealth.httpGet(URI.create(base + "/hang"), Duration.ofMillis(300)).ask())
                    .isInstanceOf(IOException.class).hasMessageContaining("no answer");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        } finally {
            release.countDown();
            server.stop(0);
        }
    }
}
