package dev.qaldy.scheduler.ticks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.qaldy.control.schedules.control.RunDispatcher;
import dev.qaldy.control.schedules.control.ScheduleTicks;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class TickerTest {

    @Test
    void a_dispatcher_round_still_running_never_holds_back_the_next_look_at_the_schedules() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        CountDownLatch roundEnds = new CountDownLatch(1);
        CountDownLatch roundStarted = new CountDownLatch(1);
        ExecutorService executor = Executors.newCachedThreadPool();
        Ticker ticker = new Ticker();
        ticker.schedules = new ScheduleTicks() {
            @Override
            public int fireDue(Clock clock) {
                looks.incrementAndGet();
                return 0;
            }

            @Override
            public Duration interval() {
                return Duration.ofSeconds(2);
            }
        };
        ticker.dispatcher = new RunDispatcher() {
            @Override
            public int dispatchPending() {
                rounds.incrementAndGet();
                roundStarted.countDown();
                try {
                    roundEnds.await(); // as slow as a round after an outage
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return 0;
            }
        };
        ticker.executor = executor;
        ticker.clock = Clock.systemUTC();
        ticker.log = Logger.getLogger(TickerTest.class.getName());
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                ticker.tick();
                assertThat(roundStarted.await(5, TimeUnit.SECONDS)).as("the round runs on the executor").isTrue();
                ticker.tick();
                ticker.tick();
            });
            assertThat(looks).as("every tick looked at the schedules while the first round ran").hasValue(3);
            assertThat(rounds).as("one round at a time").hasValue(1);
        } finally {
            roundEnds.countDown();
            executor.shutdown();
            assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }
}
