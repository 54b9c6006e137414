package dev.qaldy.control.sharing.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Issue 3: the API's wait for gates its push missed, on the gates' reported cursors. */
class GateCursorsTest {

    static final String GATE1 = "http://127.0.0.1:8080";
    static final String GATE2 = "http://127.0.0.1:8090";

    private final GateCursors cursors = new GateCursors();

    GateCursorsTest() {
        cursors.gates = List.of(GATE1, GATE2 + "/");
        cursors.log = Logger.getAnonymousLogger();
    }

    @Test
    void a_gate_that_reported_a_cursor_at_or_past_the_change_is_not_waited_for() throws InterruptedException {
        cursors.reported(GATE2, 7);
        assertThat(cursors.awaitPast(List.of(GATE2), 7, System.nanoTime())).isEmpty();
        assertThat(cursors.awaitPast(List.of(GATE2 + "/"), 6, System.nanoTime())).as("trailing slash").isEmpty();
    }

    @Test
    void a_gate_behind_the_change_at_the_deadline_is_named() throws InterruptedException {
        cursors.reported(GATE2, 6);
        assertThat(cursors.awaitPast(List.of(GATE1, GATE2), 7, System.nanoTime())).containsExactlyInAnyOrder(GATE1, GATE2);
    }

    @Test
    void a_cursor_never_goes_back_and_unknown_gates_are_not_kept() throws InterruptedException {
        cursors.reported(GATE1, 9);
        cursors.reported(GATE1, 3);
        cursors.reported("http://127.0.0.1:9999", 100);
        assertThat(cursors.awaitPast(List.of(GATE1), 9, System.nanoTime())).isEmpty();
        assertThat(cursors.awaitPast(List.of("http://127.0.0.1:9999"), 1, System.nanoTime())).hasSize(1);
    }

    @Test
    void a_pull_wakes_the_waiting_answer_before_the_deadline() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        CompletableFuture<Set<String>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return cursors.awaitPast(List.of(GATE1), 5, deadline);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        cursors.reported(GATE1, 5);
        assertThat(waiting.get(20, TimeUnit.SECONDS)).isEmpty();
        assertThat(System.nanoTime()).as("woken, not timed out").isLessThan(deadline);
    }
}
