package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 3's rule for trusting copies, on a monotonic clock the test moves by hand: in touch up to
 * the outage, out of touch before it, and a stall of the gate's own process.
 */
class SyncStateTest {

    private static final Duration MAX_GAP = Duration.ofSeconds(10);

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final SyncState state = new SyncState(nanos::get, MAX_GAP);

    /** Moves the clock by {@code ms}, with the watchdog ticking every 500 ms as the gate's thread does. */
    private void pass(long ms) {
        for (long done = 0; done < ms; done += 500) {
            nanos.addAndGet(Math.min(500, ms - done) * 1_000_000L);
            state.tick();
        }
    }

    /** A pull sent now completes after {@code tookMs}. */
    private void pull(long tookMs) {
        long sent = nanos.get();
        pass(tookMs);
        state.pulled(sent);
    }

    @Test
    void a_gate_that_never_synced_trusts_nothing() {
        assertThat(state.inTouchNow()).isFalse();
        state.failed();
        assertThat(state.trustsCopies()).isFalse();
        assertThat(state.why()).contains("not synced");
    }

    @Test
    void in_touch_right_up_to_the_outage_trusts_copies_for_the_whole_outage() {
        pull(100);
        pass(2_000);
        pull(100);
        assertThat(state.inTouchNow()).isTrue();
        pass(3_000); // the control plane dies here
        state.failed();
        assertThat(state.trustsCopies()).isTrue();
        pass(60_000); // a long outage: the outage began while in touch, and the gate kept ticking
        state.failed();
        assertThat(state.trustsCopies()).as("the moment the outage began is kept").isTrue();
        assertThat(state.inTouchNow()).as("fresh copies need a recent sync").isFalse();
    }

    @Test
    void a_gate_cut_off_alone_trusts_no_copy_while_a_whole_cell_outage_keeps_them() {
        pull(100);
        state.failed(); // the gate loses the control plane
        pass(500);
        assertThat(state.witnessed(nanos.get(), 1_200, 600)).as("the runtime host last heard it before: the cell's outage").isFalse();
        assertThat(state.trustsCopies()).isTrue();
        pass(2_000);
        assertThat(state.witnessed(nanos.get(), 300, 2_600)).as("the runtime host heard it since: cut off alone").isTrue();
        assertThat(state.trustsCopies()).isFalse();
        assertThat(state.why()).contains("alone is cut off");
        assertThat(state.firstDistrust()).isTrue();
        assertThat(state.witnessed(nanos.get(), 100, 2_600)).as("said once").isFalse();
        state.answered(); // the control plane answers this gate again
        assertThat(state.trustsCopies()).isTrue();
        assertThat(state.witnessed(nanos.get(), 100, 0)).as("no outage, nothing to witness").isFalse();
    }

    @Test
    void a_gate_whose_own_probe_answered_during_the_outage_is_not_cut_off() {
        pull(100);
        state.failed();
        pass(3_000);
        assertThat(state.witnessed(nanos.get(), 300, 200)).isFalse();
        assertThat(state.trustsCopies()).isTrue();
    }

    @Test
    void a_quiet_period_with_pulls_still_trusts_copies() {
        for (int i = 0; i < 30; i++) { // a minute with no requests, pulling every 2 s
            pull(50);
            pass(1_950);
        }
        state.failed();
        assertThat(state.trustsCopies()).isTrue();
    }

    @Test
    void out_of_touch_before_the_outage_trusts_nothing_until_it_syncs() {
        pull(100);
        pass(9_000);
        state.failed(); // pulls failing since 9 s after the last sync: still in touch when it began
        assertThat(state.trustsCopies()).isTrue();
        state.answered(); // the API answered an access question: that outage is over
        pass(2_000);
        state.failed(); // a new outage 11 s after the last sync
        assertThat(state.trustsCopies()).isFalse();
        assertThat(state.why()).contains("lost touch");
        pull(100);
        state.failed();
        assertThat(state.trustsCopies()).as("synced again").isTrue();
    }

    @Test
    void a_pull_that_answers_late_counts_from_when_it_was_sent() {
        pull(100);
        long sent = nanos.get();
        pass(11_000); // the pull takes 11 s to answer (it cannot in the gate: the round is bounded)
        state.pulled(sent);
        pass(1_000);
        state.failed();
        assertThat(state.trustsCopies()).as("12 s since the pull was sent").isFalse();
    }

    @Test
    void a_stall_of_the_gate_counts_as_out_of_touch_until_a_pull_sent_after_it() {
        pull(100);
        pass(1_000);
        state.failed(); // an outage begins while in touch
        assertThat(state.trustsCopies()).isTrue();
        long sentBeforeStall = nanos.get();

        nanos.addAndGet(Duration.ofSeconds(12).toNanos()); // SIGSTOP … SIGCONT: no tick for 12 s
        assertThat(state.trustsCopies()).as("seen on the hot path before the watchdog ticks").isFalse();
        assertThat(state.tick()).as("the watchdog sees the gap").isTrue();
        pass(500);
        state.failed();
        assertThat(state.trustsCopies()).isFalse();
        assertThat(state.inTouchNow()).isFalse();
        assertThat(state.why()).contains("stalled");

        state.pulled(sentBeforeStall); // a pull sent before the stall that answers after it
        assertThat(state.trustsCopies()).as("a pull from before the stall does not count").isFalse();
        pull(100);
        assertThat(state.inTouchNow()).isTrue();
        state.failed();
        assertThat(state.trustsCopies()).isTrue();
    }

    @Test
    void a_short_pause_is_not_a_stall() {
        pull(100);
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(state.tick()).isFalse();
        state.failed();
        assertThat(state.trustsCopies()).isTrue();
    }

    @Test
    void the_reason_is_logged_once_per_outage() {
        state.failed();
        assertThat(state.firstDistrust()).isTrue();
        assertThat(state.firstDistrust()).isFalse();
        pull(100);
        assertThat(state.firstDistrust()).isTrue();
    }

    @Test
    void the_max_gap_must_be_positive() {
        assertThatThrownBy(() -> new SyncState(nanos::get, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_api_answering_after_a_failure_asks_for_a_pull_at_once() {
        int[] woken = {0};
        state.onSyncWanted(() -> woken[0]++);
        pull(100);
        state.answered();
        assertThat(state.takeSyncWanted()).as("no failure before: nothing to hurry").isFalse();
        state.failed();
        state.answered();
        assertThat(woken[0]).isEqualTo(1);
        assertThat(state.takeSyncWanted()).isTrue();
        assertThat(state.takeSyncWanted()).as("once").isFalse();
    }
}
