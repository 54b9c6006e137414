package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The tick fires schedules in batches, and one by one when a batch fails as a whole. */
class ScheduleTicksTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    /** Stands in for the transactional bean: records what it was asked, fails the batches it is told to. */
    static final class Recorder extends ScheduleFiring {
        final List<Long> ids;
        final List<Integer> batches = new ArrayList<>();
        final List<Long> oneByOne = new ArrayList<>();
        boolean batchesFail;

        Recorder(long count) {
            ids = LongStream.rangeClosed(1, count).boxed().toList();
        }

        @Override
        public List<Long> scheduleIds() {
            return ids;
        }

        @Override
        public int fireAll(List<Long> scheduleIds, Instant now, CatchUpPlanner planner) {
            if (batchesFail) {
                throw new IllegalStateException("another control plane fired one of them first");
            }
            batches.add(scheduleIds.size());
            return scheduleIds.size(); // one run each
        }

        @Override
        public CatchUpPlanner.Plan fire(long scheduleId, Instant now, CatchUpPlanner planner) {
            oneByOne.add(scheduleId);
            return scheduleId % 2 == 0 ? new CatchUpPlanner.Ordinary(now) : new CatchUpPlanner.Nothing();
        }
    }

    private static ScheduleTicks ticks(ScheduleFiring firing) {
        ScheduleTicks ticks = new ScheduleTicks();
        ticks.firing = firing;
        ticks.window = Duration.ofHours(6);
        ticks.interval = Duration.ofSeconds(15);
        ticks.log = Logger.getLogger(ScheduleTicksTest.class.getName());
        ticks.configure();
        return ticks;
    }

    @Test
    void tenThousandSchedulesAreFiredInBatches() {
        Recorder firing = new Recorder(10_000);
        assertThat(ticks(firing).fireDue(NOW)).isEqualTo(10_000);
        assertThat(firing.batches).hasSize(10_000 / ScheduleTicks.BATCH).allMatch(size -> size == ScheduleTicks.BATCH);
        assertThat(firing.oneByOne).isEmpty();
    }

    @Test
    void theLastBatchTakesWhatIsLeft() {
        Recorder firing = new Recorder(ScheduleTicks.BATCH + 3);
        assertThat(ticks(firing).fireDue(NOW)).isEqualTo(ScheduleTicks.BATCH + 3);
        assertThat(firing.batches).containsExactly(ScheduleTicks.BATCH, 3);
    }

    @Test
    void aFailedBatchIsFiredOneScheduleAtATime() {
        Recorder firing = new Recorder(5);
        firing.batchesFail = true;
        assertThat(ticks(firing).fireDue(NOW)).as("schedules 2 and 4 had an ordinary tick due").isEqualTo(2);
        assertThat(firing.oneByOne).containsExactly(1L, 2L, 3L, 4L, 5L);
    }
}
