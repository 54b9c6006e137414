package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The tick fires schedules in pages, one transaction each, and one by one when a page fails as a
 * whole; a page that hits the unique (schedule, tick) key loses nothing of the other schedules.
 */
class ScheduleTicksTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant TICK = Instant.parse("2026-03-01T09:55:00Z");

    /**
     * Stands in for the transactional bean over a run queue with the unique (schedule, tick) key:
     * a page is all or nothing, as one transaction is; every schedule has the tick {@link #TICK} due.
     */
    static final class Queue extends ScheduleFiring {
        final List<Long> ids;
        final List<Integer> pages = new ArrayList<>();
        final List<Integer> failedPages = new ArrayList<>();
        /** The committed runs: (schedule, tick) → how many (the key keeps this at 1). */
        final Map<String, Integer> runs = new HashMap<>();
        /** Schedules another control plane fired first: their run exists, their row here is stale. */
        final Set<Long> firedElsewhere = new HashSet<>();
        final List<Instant> plannedAt = new ArrayList<>();
        boolean pagesFail;

        Queue(long count) {
            ids = LongStream.rangeClosed(1, count).boxed().toList();
        }

        @Override
        public List<Long> scheduleIds() {
            return ids;
        }

        @Override
        public int fireAll(List<Long> scheduleIds, Supplier<Instant> clock, CatchUpPlanner planner) {
            plannedAt.add(clock.get());
            if (pagesFail && scheduleIds.size() > 1) {
                throw new IllegalStateException("lock wait timed out");
            }
            Map<String, Integer> written = new HashMap<>();
            for (long id : scheduleIds) {
                String key = id + "@" + TICK;
                if (runs.containsKey(key) || firedElsewhere.contains(id)) {
                    failedPages.add(scheduleIds.size()); // unique key: the whole transaction rolls back
                    throw new IllegalStateException("duplicate key RUNS_SCHEDULE_TICK_UQ for schedule " + id);
                }
                written.put(key, 1);
            }
            runs.putAll(written); // commit
            pages.add(scheduleIds.size());
            return written.size();
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
    void tenThousandSchedulesAreFiredInPages() {
        Queue firing = new Queue(10_000);
        assertThat(ticks(firing).fireDue(NOW)).isEqualTo(10_000);
        assertThat(firing.pages).hasSize(10_000 / ScheduleTicks.PAGE).allMatch(size -> size == ScheduleTicks.PAGE);
        assertThat(firing.runs.size()).isEqualTo(10_000);
    }

    @Test
    void theLastPageTakesWhatIsLeft() {
        Queue firing = new Queue(ScheduleTicks.PAGE + 3);
        assertThat(ticks(firing).fireDue(NOW)).isEqualTo(ScheduleTicks.PAGE + 3);
        assertThat(firing.pages).containsExactly(ScheduleTicks.PAGE, 3);
    }

    @Test
    void aPageThatHitsTheUniqueKeyIsFiredOneByOneAndNoOtherScheduleLosesItsRun() {
        Queue firing = new Queue(ScheduleTicks.PAGE * 2);
        firing.firedElsewhere.add(7L); // another control plane queued schedule 7's run first
        int fired = ticks(firing).fireDue(NOW);
        assertThat(firing.failedPages).as("the first page, then schedule 7 alone").containsExactly(ScheduleTicks.PAGE, 1);
        assertThat(fired).isEqualTo(ScheduleTicks.PAGE * 2 - 1);
        assertThat(firing.runs.size()).isEqualTo(ScheduleTicks.PAGE * 2 - 1);
        assertThat(firing.runs).doesNotContainKey("7@" + TICK).containsKeys("6@" + TICK, "8@" + TICK);
        assertThat(firing.pages).as("the second page as a whole; the first one schedule to a transaction")
                .containsOnly(1, ScheduleTicks.PAGE).contains(ScheduleTicks.PAGE);
    }

    @Test
    void aSecondControlPlanePlanningFromStaleRowsAddsNoRun() {
        Queue firing = new Queue(1_200);
        assertThat(ticks(firing).fireDue(NOW)).isEqualTo(1_200);
        assertThat(ticks(firing).fireDue(NOW)).as("the same tick planned again: the key refuses every run").isZero();
        assertThat(firing.runs.size()).isEqualTo(1_200);
    }

    @Test
    void aFailedPageIsFiredOneScheduleAtATime() {
        Queue firing = new Queue(5);
        firing.pagesFail = true;
        assertThat(ticks(firing).fireDue(NOW)).isEqualTo(5);
        assertThat(firing.pages).containsExactly(1, 1, 1, 1, 1);
    }

    @Test
    void eachPageReadsTheTimeWhenItsRowsAreRead() {
        Queue firing = new Queue(ScheduleTicks.PAGE * 3);
        Clock clock = new Clock() {
            private Instant now = NOW;

            @Override
            public Instant instant() {
                now = now.plusSeconds(1);
                return now;
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
        ticks(firing).fireDue(clock);
        assertThat(firing.plannedAt).containsExactly(NOW.plusSeconds(1), NOW.plusSeconds(2), NOW.plusSeconds(3));
    }
}
