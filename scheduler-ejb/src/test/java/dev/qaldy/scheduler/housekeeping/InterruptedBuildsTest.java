package dev.qaldy.scheduler.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.control.builds.control.BuildRecorder;
import jakarta.persistence.PersistenceException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Builds an earlier process left unfinished are failed once, also when the database was down at
 * start (a control plane started during a database outage). The recorder stands in for the
 * database's two answers (refused, then answering); the real query runs in the cell tests.
 */
class InterruptedBuildsTest {

    /** Refuses while {@code down}, then records each cut-off it was asked with. */
    static final class Recorder extends BuildRecorder {
        boolean down = true;
        final List<Instant> askedBefore = new ArrayList<>();

        @Override
        public int failInterrupted(Instant startedAt) {
            if (down) {
                throw new PersistenceException("Connection refused");
            }
            askedBefore.add(startedAt);
            return 1;
        }

        @Override
        public Instant now() {
            return Instant.parse("2026-11-30T09:00:00Z");
        }
    }

    @Test
    void with_the_database_down_at_start_the_first_sweep_that_reaches_it_fails_them_once_with_the_start_as_cut_off() {
        Recorder recorder = new Recorder();
        Housekeeping housekeeping = new Housekeeping();
        housekeeping.builds = recorder;
        housekeeping.log = Logger.getLogger("test");
        housekeeping.startedAt = recorder.now();

        housekeeping.failInterruptedBuilds();
        assertThat(recorder.askedBefore).isEmpty();

        recorder.down = false;
        housekeeping.failInterruptedBuilds();
        housekeeping.failInterruptedBuilds();
        assertThat(recorder.askedBefore).containsExactly(Instant.parse("2026-11-30T09:00:00Z"));
    }
}
