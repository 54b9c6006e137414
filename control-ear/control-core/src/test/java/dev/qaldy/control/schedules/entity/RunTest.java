package dev.qaldy.control.schedules.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A run whose runtime host could not be reached: queued again while young enough, failed after, untouched when not running. */
class RunTest {

    static final Instant QUEUED = Instant.parse("2026-12-02T05:31:59Z");
    static final Duration MAX_AGE = Duration.ofHours(1);

    /** A run as the dispatcher's claim leaves it (the claim is a bulk UPDATE, so the test sets the state itself). */
    static Run running() throws ReflectiveOperationException {
        Run run = Run.scheduled(1, "notes", 2, "tidy", QUEUED, false, QUEUED);
        Field state = Run.class.getDeclaredField("state");
        state.setAccessible(true);
        state.set(run, RunState.RUNNING);
        return run;
    }

    @Test
    void within_its_age_it_goes_back_to_the_queue_and_says_why() throws Exception {
        Run run = running();
        assertThat(run.undelivered("connection refused", QUEUED.plusSeconds(30), MAX_AGE)).isTrue();
        assertThat(run.state()).isEqualTo(RunState.QUEUED);
        assertThat(String.join("\n", run.logLines())).contains("not delivered yet").contains("connection refused").contains("sent again");
    }

    @Test
    void past_its_age_it_fails_and_says_how_long_it_waited() throws Exception {
        Run run = running();
        assertThat(run.undelivered("connection refused", QUEUED.plus(MAX_AGE).plusSeconds(1), MAX_AGE)).isFalse();
        assertThat(run.state()).isEqualTo(RunState.FAILED);
        assertThat(String.join("\n", run.logLines())).contains("not delivered").contains("PT1H");
    }

    @Test
    void a_run_not_running_is_left_as_it_is() {
        Run run = Run.scheduled(1, "notes", 2, "tidy", QUEUED, false, QUEUED);
        assertThat(run.undelivered("connection refused", QUEUED.plusSeconds(1), MAX_AGE)).isFalse();
        assertThat(run.state()).isEqualTo(RunState.QUEUED);
    }
}
