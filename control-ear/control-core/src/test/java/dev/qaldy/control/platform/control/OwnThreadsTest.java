package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class OwnThreadsTest {

    @Test
    void names_the_threads_inside_our_code_with_their_frames_but_not_the_caller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        Thread holder = new Thread(() -> holdTheRow(inside, release), "holds-the-row");
        holder.start();
        try {
            inside.await();
            long until = System.nanoTime() + 5_000_000_000L; // it counted down on its way to park: wait until it is parked
            while (holder.getState() != Thread.State.WAITING && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            String dump = OwnThreads.dump(40, 60);
            assertThat(dump).contains("\"holds-the-row\" WAITING").contains("OwnThreadsTest.holdTheRow");
            assertThat(dump).doesNotContain("\"" + Thread.currentThread().getName() + "\"");
            assertThat(OwnThreads.dump(1, 2).lines().filter(l -> l.startsWith("    at "))).hasSizeLessThanOrEqualTo(2);
        } finally {
            release.countDown();
            holder.join(5_000);
        }
        assertThat(holder.isAlive()).isFalse();
    }

    static void holdTheRow(CountDownLatch inside, CountDownLatch release) {
        inside.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
