package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.schedules.entity.RunQueued;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 10,000 runs queued at once (a catch-up after an outage) are sent by a bounded number of workers:
 * every one exactly once, never more than {@code dispatch-concurrency} at a time, and the executor
 * the builder's readiness check shares keeps answering meanwhile.
 */
class RunDispatcherTest {

    static final int RUNS = 10_000;
    static final int CONCURRENCY = 4;

    /** The server's executor: 8 threads, as a small pool; only {@code execute} and {@code submit} are used. */
    private final ExecutorService pool = Executors.newFixedThreadPool(8);

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** The run queue: ids still queued; a dispatch claims one (exactly one claimer wins). */
    static final class Table extends RunQueue {
        final NavigableSet<Long> queued = new ConcurrentSkipListSet<>();

        @Override
        public List<Long> queued(int max) {
            return queued.stream().limit(max).toList();
        }
    }

    /** Sends nothing: claims the run in the table, takes about 0.2 ms, and records how many were sent at once. */
    static final class Counting extends RunDispatcher {
        final Map<Long, Integer> sent = new ConcurrentHashMap<>();
        final AtomicInteger sending = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger lostClaims = new AtomicInteger();

        @Override
        void dispatch(long runId) {
            if (!((Table) queue).queued.remove(runId)) {
                lostClaims.incrementAndGet();
                return;
            }
            int now = sending.incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            LockSupport.parkNanos(200_000);
            sent.merge(runId, 1, Integer::sum);
            sending.decrementAndGet();
        }
    }

    private Counting dispatcher(Table table) {
        Counting dispatcher = new Counting();
        dispatcher.executor = (ManagedExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedExecutorService.class}, (proxy, method, args) -> method.invoke(pool, args));
        dispatcher.queue = table;
        dispatcher.unrecorded = new UnrecordedOutcomes();
        dispatcher.concurrency = CONCURRENCY;
        dispatcher.log = Logger.getLogger(RunDispatcherTest.class.getName());
        return dispatcher;
    }

    @Test
    void tenThousandQueuedRunsAreEachSentOnceByAtMostFourWorkersAndTheExecutorStillAnswers() throws Exception {
        Table table = new Table();
        Counting dispatcher = dispatcher(table);
        for (long id = 1; id <= RUNS; id++) {
            table.queued.add(id);
        }
        for (long id = 1; id <= RUNS; id++) {
            dispatcher.queued(new RunQueued(id)); // as 20 committed pages of 500 would
        }
        // the readiness check's probe: a task on the same executor answers within 1 s meanwhile
        assertThat(pool.submit(() -> Boolean.TRUE).get(1, TimeUnit.SECONDS)).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (dispatcher.sent.size() < RUNS && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(dispatcher.sent.size()).isEqualTo(RUNS);
        assertThat(dispatcher.sent.values()).as("each sent once").containsOnly(1);
        assertThat(table.queued).isEmpty();
        assertThat(dispatcher.mostAtOnce.get()).isBetween(1, CONCURRENCY);
    }

    @Test
    void whileATickQueuesRunsNoneIsSentAndAllAreSentAfter() throws Exception {
        Table table = new Table();
        Counting dispatcher = dispatcher(table);
        int runs = 3_000;
        int sentWhileQueueing = dispatcher.whileQueueing(() -> {
            for (long id = 1; id <= runs; id++) {
                table.queued.add(id);
                dispatcher.queued(new RunQueued(id));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // the rest of the tick
            return dispatcher.sent.size();
        });
        assertThat(sentWhileQueueing).isZero();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (dispatcher.sent.size() < runs && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(dispatcher.sent.size()).isEqualTo(runs);
        assertThat(dispatcher.sent.values()).as("each sent once").containsOnly(1);
    }

    @Test
    void aRunThatFindsNoRoomWaitsInTheQueueAndIsSentLater() throws Exception {
        Table table = new Table();
        Counting dispatcher = dispatcher(table);
        dispatcher.concurrency = 1;
        int runs = RunDispatcher.MAX_BACKLOG * 3;
        for (long id = 1; id <= runs; id++) {
            table.queued.add(id);
        }
        int accepted = 0;
        for (long id = 1; id <= runs; id++) {
            if (dispatcher.submit(id)) {
                accepted++;
            }
        }
        assertThat(accepted).as("the backlog is bounded").isLessThan(runs);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (dispatcher.sent.size() < runs && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(dispatcher.sent.size()).as("the workers read the rest from the queue").isEqualTo(runs);
        assertThat(dispatcher.sent.values()).as("each sent once").containsOnly(1);
        assertThat(dispatcher.mostAtOnce.get()).isEqualTo(1);
    }
}
