package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnrecordedOutcomesTest {

    /** A run queue whose database is away until {@code back}; records what was finished. */
    static final class Queue extends RunQueue {
        boolean back;
        final List<Long> finished = new ArrayList<>();

        @Override
        public void finish(long runId, boolean succeeded, List<String> log) {
            if (!back) {
                throw new IllegalStateException("Connection refused: the database is away");
            }
            finished.add(runId);
        }
    }

    @Test
    void outcomes_wait_while_the_database_is_away_and_are_recorded_once_each_when_it_is_back() {
        UnrecordedOutcomes outcomes = new UnrecordedOutcomes();
        Queue queue = new Queue();
        assertThat(outcomes.keep(7, q -> q.finish(7, true, List.of("ran")))).isTrue();
        assertThat(outcomes.keep(8, q -> q.finish(8, false, List.of("failed")))).isTrue();

        assertThat(outcomes.recordAll(queue)).isZero();
        assertThat(outcomes.size()).as("nothing dropped while the database is away").isEqualTo(2);

        queue.back = true;
        assertThat(outcomes.recordAll(queue)).isEqualTo(2);
        assertThat(queue.finished).containsExactlyInAnyOrder(7L, 8L);
        assertThat(outcomes.recordAll(queue)).as("each recorded once").isZero();
        assertThat(queue.finished).hasSize(2);
    }

    @Test
    void past_the_bound_an_outcome_is_not_kept() {
        UnrecordedOutcomes outcomes = new UnrecordedOutcomes();
        for (long id = 0; id < UnrecordedOutcomes.MAX; id++) {
            assertThat(outcomes.keep(id, q -> { })).isTrue();
        }
        assertThat(outcomes.keep(UnrecordedOutcomes.MAX, q -> { })).isFalse();
        assertThat(outcomes.keep(0, q -> { })).as("a run already kept is replaced, not refused").isTrue();
        assertThat(outcomes.size()).isEqualTo(UnrecordedOutcomes.MAX);
    }
}
