package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.schedules.entity.RunState;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, found by CI (ScheduleWebhookDataIT): the database was SIGKILLed as it committed the claim
 * of a webhook's run. The claim was on disk, its answer never came, and the dispatcher took the
 * claim for failed: the run stayed running, was never sent, and was failed as stale 90 s later,
 * though the webhook had been answered 202. A JDBC commit that throws says nothing of whether the
 * database wrote it; these tests give the dispatcher exactly that answer (the real window is
 * microseconds wide, so a killed process hits it only now and then).
 */
class InDoubtClaimTest {

    /** The run table as the database holds it, and whether the database answers. */
    static final class Table extends RunQueue {
        final Map<Long, RunState> states = new ConcurrentHashMap<>();
        final Map<Long, Long> tokens = new ConcurrentHashMap<>();
        volatile boolean away;
        /** The next claim is written, and then the connection breaks before the answer. */
        volatile boolean loseNextClaimAnswer;
        /** The next claim never reaches the database. */
        volatile boolean failNextClaimBeforeWriting;

        private void answering() {
            if (away) {
                throw new IllegalStateException("Connection is broken: \"session closed\" (the database is away)");
            }
        }

        @Override
        public List<Long> dispatchable(int max) {
            answering();
            return states.entrySet().stream().filter(e -> DISPATCHABLE.contains(e.getValue())).map(Map.Entry::getKey)
                    .sorted().limit(max).toList();
        }

        @Override
        public Optional<String> pendingApp(long runId) {
            answering();
            return DISPATCHABLE.contains(states.get(runId)) ? Optional.of("board") : Optional.empty();
        }

        @Override
        public Optional<Claimed> claim(long runId, long token) {
            answering();
            if (failNextClaimBeforeWriting) {
                failNextClaimBeforeWriting = false;
                throw new IllegalStateException("Connection is broken: \"session closed\" (before the claim was written)");
            }
            if (!DISPATCHABLE.contains(states.get(runId))) {
                return Optional.empty();
            }
            states.put(runId, RunState.RUNNING);
            tokens.put(runId, token);
            if (loseNextClaimAnswer) {
                loseNextClaimAnswer = false;
                away = true; // committed, and the database died before it answered
                throw new IllegalStateException("Connection is broken: \"session closed\" (during commit)");
            }
            return Optional.of(new Claimed(runId, "board", "digest", Instant.EPOCH, "webhook", "{}"));
        }

        @Override
        public boolean release(long runId, long token) {
            answering();
            if (states.get(runId) == RunState.RUNNING && tokens.get(runId) == token) {
                states.put(runId, RunState.QUEUED);
                tokens.remove(runId);
                return true;
            }
            return false;
        }

        @Override
        public void finish(long runId, boolean succeeded, List<String> log) {
            answering();
            if (states.get(runId) == RunState.RUNNING) {
                states.put(runId, succeeded ? RunState.SUCCEEDED : RunState.FAILED);
            }
        }

        @Override
        public int failStale(Instant startedBefore) {
            answering();
            return 0;
        }
    }

    /** Sends to a runtime host that runs every job it gets, and lists what it got. */
    static final class Sending extends RunDispatcher {
        final List<Long> sent = new ArrayList<>();

        @Override
        synchronized Outcome send(RunQueue.Claimed run) {
            sent.add(run.runId());
            return new Outcome(true, List.of("ran"));
        }
    }

    private static Sending dispatcher(Table table) {
        Sending dispatcher = new Sending();
        dispatcher.executor = (ManagedExecutorService) Proxy.newProxyInstance(InDoubtClaimTest.class.getClassLoader(),
                new Class<?>[] {ManagedExecutorService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("execute")) {
                        ((Runnable) args[0]).run(); // the workers run on the caller's thread: one tick, start to end
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        dispatcher.queue = table;
        dispatcher.admission = new RunAdmission() {
            @Override
            public boolean mayRun(String app) {
                return true;
            }
        };
        dispatcher.unrecorded = new UnrecordedOutcomes();
        dispatcher.clock = Clock.systemUTC();
        dispatcher.jobTimeout = Duration.ofSeconds(30);
        dispatcher.undeliveredMaxAge = Duration.ofHours(1);
        dispatcher.concurrency = 1;
        dispatcher.log = Logger.getLogger(InDoubtClaimTest.class.getName());
        return dispatcher;
    }

    @Test
    void a_claim_written_as_the_database_died_is_sent_once_the_database_answers_again() {
        Table table = new Table();
        table.states.put(297L, RunState.QUEUED);
        Sending dispatcher = dispatcher(table);

        table.loseNextClaimAnswer = true;
        dispatcher.submit(297L); // a worker sends it, as when the webhook was accepted
        assertThat(table.states.get(297L)).as("the database holds the claim").isEqualTo(RunState.RUNNING);
        assertThat(dispatcher.sent).as("not sent: the dispatcher does not know it holds the claim").isEmpty();

        table.away = false; // the database is back; the next tick
        dispatcher.dispatchPending();

        assertThat(dispatcher.sent).as("sent once, after all").containsExactly(297L);
        assertThat(table.states.get(297L)).isEqualTo(RunState.SUCCEEDED);
    }

    @Test
    void a_claim_that_never_reached_the_database_leaves_the_run_to_be_sent_once() {
        Table table = new Table();
        table.states.put(298L, RunState.QUEUED);
        Sending dispatcher = dispatcher(table);

        table.failNextClaimBeforeWriting = true;
        dispatcher.submit(298L);
        assertThat(table.states.get(298L)).isEqualTo(RunState.QUEUED);

        dispatcher.dispatchPending();
        dispatcher.dispatchPending();

        assertThat(dispatcher.sent).as("sent once; the kept release changed nothing").containsExactly(298L);
        assertThat(table.states.get(298L)).isEqualTo(RunState.SUCCEEDED);
    }

    @Test
    void a_kept_release_never_takes_back_a_claim_made_since_by_another_dispatcher() {
        Table table = new Table();
        table.states.put(299L, RunState.QUEUED);
        Sending first = dispatcher(table);
        table.failNextClaimBeforeWriting = true;
        first.submit(299L); // in doubt: its release is kept

        long othersToken = 42L; // another control plane claims the run meanwhile and is sending it
        table.claim(299L, othersToken);

        first.dispatchPending();

        assertThat(table.states.get(299L)).as("still the other's claim").isEqualTo(RunState.RUNNING);
        assertThat(table.tokens.get(299L)).isEqualTo(othersToken);
        assertThat(first.sent).as("not sent a second time").isEmpty();
    }
}
