package dev.qaldy.gate.shield;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Requests per app per local day, in the gate's memory. The day is the app's zone's (its owner's
 * {@code dayZone}, else {@code qaldy.gate.shield.day-zone}), start of day to start of day by
 * {@code ZonedDateTime} rules (23- and 25-hour days are what they are).
 *
 * <p>A counter moves to a later date only when both the wall clock shows it and the monotonic clock
 * has run as long as the day had left: a wall-clock step back never reopens or resets a day, a step
 * forward never starts the next one early. A zone change never resets or grants: the current day
 * runs to its end, then on to the new zone's first start of day at or after it.
 *
 * <p>Counters survive a restart ({@link #snapshot}, {@link #restore}; {@link ShieldMemory} owns the
 * rule for a lost file, {@link #assumeUsedUpOn}). An idle counter is dropped
 * {@link #KEPT_AFTER_ITS_DAY} after its day, so dropping grants nothing; past {@code maxCounters}
 * the least used go and restart from zero (the price of bounded memory).
 */
public final class DailyLimits {

    /**
     * @param nanosToNextDay until the counter moves to the next day (both clocks agreeing)
     * @param nextDay        the next day's start, in the zone of the counter's day
     * @param firstRefusal   the first request refused on this date (worth a log line)
     */
    public record Outcome(boolean allowed, long limit, long remaining, long nanosToNextDay, ZonedDateTime nextDay,
            boolean firstRefusal) {
    }

    /** Kept this long after its day is over on both clocks, so a dropped counter is never one in force. */
    static final Duration KEPT_AFTER_ITS_DAY = Duration.ofHours(1);

    static final Duration ONE_DAY = Duration.ofDays(1);

    private final Clock clock;
    private final TimeMeter meter;
    private final ZoneId zone;
    private final Duration dayLength;
    private final long maxCounters;
    /** Bounded by the zones the JVM knows. */
    private final ConcurrentMap<ZoneId, Days> daysByZone = new ConcurrentHashMap<>();
    private final Cache<String, DayCounter> counters;
    /** Null when nothing was lost. */
    private volatile Instant lostAt;

    /** @param endsAt when that day ends (wall clock) */
    public record Kept(String app, ZoneId zone, long count, Instant endsAt) {
        public Kept {
            Objects.requireNonNull(app, "app");
            Objects.requireNonNull(zone, "zone");
            Objects.requireNonNull(endsAt, "endsAt");
            if (count < 0) {
                throw new IllegalArgumentException("a count is not negative: " + count);
            }
        }
    }

    /**
     * @param meter       the monotonic clock (ns)
     * @param zone        for apps without a zone of their own
     * @param maxCounters most apps counted at once
     */
    public DailyLimits(Clock clock, TimeMeter meter, ZoneId zone, long maxCounters) {
        this(clock, meter, zone, ONE_DAY, maxCounters);
    }

    /**
     * @param dayLength {@code P1D} for calendar days; anything else (tests, drills) cuts fixed "days"
     *                  from the epoch, shifted by the zone's standard offset scaled to that length
     *                  (Kiritimati's +14 h in a 24 s "day" is 14 s)
     */
    public DailyLimits(Clock clock, TimeMeter meter, ZoneId zone, Duration dayLength, long maxCounters) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.zone = Objects.requireNonNull(zone, "zone");
        if (dayLength.compareTo(Duration.ofSeconds(1)) < 0 || dayLength.compareTo(ONE_DAY) > 0) {
            throw new IllegalArgumentException("a day is 1 s to 1 day long: " + dayLength);
        }
        this.dayLength = dayLength;
        this.maxCounters = maxCounters;
        if (meter.isWallClockBased()) {
            throw new IllegalArgumentException("daily limits need a monotonic time meter besides the wall clock");
        }
        this.counters = Caffeine.newBuilder()
                .maximumSize(maxCounters)
                .ticker(meter::currentTimeNanos)
                .executor(Runnable::run)
                .expireAfter(new Expiry<String, DayCounter>() {
                    @Override
                    public long expireAfterCreate(String app, DayCounter day, long now) {
                        return day.keepFor(now);
                    }

                    @Override
                    public long expireAfterUpdate(String app, DayCounter day, long now, long left) {
                        return day.keepFor(now);
                    }

                    @Override
                    public long expireAfterRead(String app, DayCounter day, long now, long left) {
                        return day.keepFor(now); // each count reads its counter first
                    }
                })
                .build();
    }

    public Outcome count(String app, long perDay) {
        return count(app, perDay, null);
    }

    /** Counts one request for {@code app} unless it already reached {@code perDay} today; {@code appZone} null: the default zone. */
    public Outcome count(String app, long perDay, ZoneId appZone) {
        Days wanted = daysIn(appZone == null ? zone : appZone);
        Instant now = clock.instant();
        long mono = meter.currentTimeNanos();
        // A read, not compute (issue 15: requests of one app waited on compute's map lock); the expiry is
        // set anew only when this count made the counter's keep time grow.
        DayCounter counter = counters.get(app, a -> new DayCounter(now, mono, wanted, usedUp(wanted, now)));
        DayCounter.Counted counted = counter.count(now, mono, perDay, wanted);
        if (counted.moved()) {
            counters.asMap().computeIfPresent(app, (a, day) -> day);
        }
        return counted.outcome();
    }

    private boolean usedUp(Days days, Instant now) {
        Instant lost = lostAt;
        return lost != null && days.dayOf(lost) >= days.dayOf(now);
    }

    /**
     * Every counter that counted, for {@link #restore}. With {@code reserve}, each count is written
     * higher by what it counted since the last snapshot, as if that pace went on until a kill; one
     * caller at a time.
     */
    public synchronized List<Kept> snapshot(boolean reserve) {
        List<Kept> kept = new ArrayList<>();
        Instant now = clock.instant();
        long mono = meter.currentTimeNanos();
        counters.asMap().forEach((app, day) -> day.kept(app, reserve, now, mono).ifPresent(kept::add));
        return kept;
    }

    /** Puts back a kept counter unless its day is over or the app counts already; it stands until {@code kept.endsAt()}. */
    public void restore(Kept kept) {
        Instant now = clock.instant();
        if (!kept.endsAt().isAfter(now)) {
            return;
        }
        long mono = meter.currentTimeNanos();
        counters.asMap().computeIfAbsent(kept.app(), app -> new DayCounter(now, mono, daysIn(kept.zone()), kept.count(), kept.endsAt()));
    }

    /** What was kept is lost: a counter opening during the day in force at {@code at} starts used up. */
    public void assumeUsedUpOn(Instant at) {
        lostAt = Objects.requireNonNull(at, "at");
    }

    public ZoneId zone() {
        return zone;
    }

    /** For the log. */
    public String dayRule() {
        return dayLength.equals(ONE_DAY) ? "calendar days" : "days of " + dayLength + " from the epoch";
    }

    private Days daysIn(ZoneId z) {
        return daysByZone.computeIfAbsent(z, k -> dayLength.equals(ONE_DAY) ? new CalendarDays(k)
                : FixedDays.of(dayLength.toMillis(), k, clock.instant()));
    }

    public long maxCounters() {
        return maxCounters;
    }

    /** An estimate. */
    public long size() {
        return counters.estimatedSize();
    }

    /** How days are cut; equal days are the same days (a zone change is a change of days). */
    interface Days {
        long dayOf(Instant now);

        Instant startOf(long day);

        ZoneId zone();
    }

    record CalendarDays(ZoneId zone) implements Days {
        @Override
        public long dayOf(Instant now) {
            return now.atZone(zone).toLocalDate().toEpochDay();
        }

        @Override
        public Instant startOf(long day) {
            return LocalDate.ofEpochDay(day).atStartOfDay(zone).toInstant();
        }
    }

    /** Fixed-length "days" in ms from the epoch, starting {@code shiftMillis} early (the scaled standard offset). */
    record FixedDays(long millis, long shiftMillis, ZoneId zone) implements Days {

        static FixedDays of(long millis, ZoneId zone, Instant now) {
            long offsetMillis = zone.getRules().getStandardOffset(now).getTotalSeconds() * 1000L;
            return new FixedDays(millis, Math.floorDiv(offsetMillis * millis, ONE_DAY.toMillis()), zone);
        }

        @Override
        public long dayOf(Instant now) {
            return Math.floorDiv(now.toEpochMilli() + shiftMillis, millis);
        }

        @Override
        public Instant startOf(long day) {
            return Instant.ofEpochMilli(day * millis - shiftMillis);
        }
    }

    static final long USED_UP = Long.MAX_VALUE / 4;

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
