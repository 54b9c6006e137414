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
 * Requests per app per local day, counted in the gate's memory: the day of the app's zone (its
 * owner's {@code dayZone}, else the gate's default {@code qaldy.gate.shield.day-zone}, UTC), from its
 * start of day ({@code ZonedDateTime} rules, so 23- and 25-hour days are what they are) to the next
 * date's start of day.
 *
 * <p>The day rule, per app: the counter belongs to one local date and moves on to a later date
 * only when <em>both</em>
 * <ol>
 * <li>the wall clock (the injected {@link Clock}) shows a later date in the zone, and
 * <li>the monotonic clock has run at least as long as that date had left when its counter opened.
 * </ol>
 * So the counter resets exactly once per day, at the day's start; a wall-clock step back never
 * reopens an earlier date or resets today's counter (the date in force is the later of the last
 * one seen and the wall clock's: a step back makes today end later, by at most the step, and never
 * grants anything), and a step forward waits for the monotonic clock, so it never starts the next
 * day early. Neither clock needs the control plane.
 *
 * <p>A change of the app's zone (its owner changed it, or the gate learned it after a restart, from
 * the control plane or its copy on disk) never resets today's count and never grants requests: the
 * counter's current day runs to its end in the zone it opened with (if that day is already over on
 * both clocks, first the old zone's next day opens, as without the change), and then on to the
 * first start of day in the new zone at or after that end; from there the new zone's days count.
 * So the day during which the zone changes only gets longer (by less than a day; each further
 * change can lengthen it again), never shorter.
 *
 * <p>Counters live in memory and are kept across a restart ({@link #snapshot}, {@link #restore};
 * {@link ShieldMemory} writes them to disk): a restored counter keeps its count until its day's
 * end as the wall clock measures it, and then on to the first start of day at or after that end.
 * When what was kept is lost ({@link #assumeUsedUpOn}), every app's counter for the day in force
 * at the loss starts used up: refused until that day ends (seed's rule: a limit that cannot be
 * known counts as used up, never as unused). An idle counter is
 * dropped an hour after its date is over on both clocks, so dropping it grants nothing; at most
 * {@code maxCounters} are kept, and past that the least used go first (an app whose counter was
 * pushed out starts again from zero: the price of bounded memory under a flood of app names). A
 * new counter opens in the zone in force, like a new app's.
 */
public final class DailyLimits {

    /**
     * What the day's counter said to one request.
     *
     * @param allowed        counted and let through
     * @param limit          requests per day
     * @param remaining      requests left today
     * @param nanosToNextDay until the counter moves to the next day (both clocks agreeing)
     * @param nextDay        when the next day starts, in the zone of the counter's day
     * @param firstRefusal   this is the first request refused on this date (worth a log line)
     */
    public record Outcome(boolean allowed, long limit, long remaining, long nanosToNextDay, ZonedDateTime nextDay,
            boolean firstRefusal) {
    }

    /**
     * An idle counter is dropped this long after its date is over on both clocks (as far as its
     * last request could tell), so a dropped counter is never one still in force.
     */
    static final Duration KEPT_AFTER_ITS_DAY = Duration.ofHours(1);

    /** The calendar day. */
    static final Duration ONE_DAY = Duration.ofDays(1);

    private final Clock clock;
    private final TimeMeter meter;
    private final ZoneId zone;
    private final Duration dayLength;
    private final long maxCounters;
    /** Days by zone: bounded by the zones the JVM knows (only those reach here). */
    private final ConcurrentMap<ZoneId, Days> daysByZone = new ConcurrentHashMap<>();
    private final Cache<String, DayCounter> counters;
    /** When what was kept was lost; null when nothing was. */
    private volatile Instant lostAt;

    /**
     * One app's counter as kept across a restart.
     *
     * @param app    the app
     * @param zone   the zone of its day
     * @param count  requests counted on that day
     * @param endsAt when that day ends (wall clock)
     */
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
     * @param clock       the wall clock: which date it is
     * @param meter       the monotonic clock (nanoseconds): how long a day has run
     * @param zone        the zone whose days count for apps without a zone of their own
     * @param maxCounters most apps counted at once
     */
    public DailyLimits(Clock clock, TimeMeter meter, ZoneId zone, long maxCounters) {
        this(clock, meter, zone, ONE_DAY, maxCounters);
    }

    /**
     * @param clock       the wall clock: which day it is
     * @param meter       the monotonic clock (nanoseconds): how long a day has run
     * @param zone        the zone whose days count for apps without a zone of their own
     * @param dayLength   {@code P1D}: the zone's calendar days; anything else (tests, drills): "days"
     *                    of exactly this length counted from the epoch, e.g. {@code PT30S}, shifted by
     *                    the zone's standard offset scaled to that length (Kiritimati's +14 h in a
     *                    24 s "day" is 14 s), so apps in different zones reset at different instants
     * @param maxCounters most apps counted at once
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

    /** Counts one request for {@code app}, in the default zone, unless it already reached {@code perDay} today. */
    public Outcome count(String app, long perDay) {
        return count(app, perDay, null);
    }

    /**
     * Counts one request for {@code app} unless it already reached {@code perDay} today.
     *
     * @param appZone the app's zone (its owner's); null: the default zone
     */
    public Outcome count(String app, long perDay, ZoneId appZone) {
        Days wanted = daysIn(appZone == null ? zone : appZone);
        Instant now = clock.instant();
        long mono = meter.currentTimeNanos();
        // A read, not compute (issue 15: every request of one app waited on compute's map lock): the read sets
        // the counter's expiry from its state before this count, which is late enough unless this count made the
        // time it must be kept grow; then the expiry is set anew, so no counter in force is dropped.
        DayCounter counter = counters.get(app, a -> new DayCounter(now, mono, wanted, usedUp(wanted, now)));
        DayCounter.Counted counted = counter.count(now, mono, perDay, wanted);
        if (counted.moved()) {
            counters.asMap().computeIfPresent(app, (a, day) -> day);
        }
        return counted.outcome();
    }

    /** True when what was kept was lost during the day that is {@code now}'s in {@code days}. */
    private boolean usedUp(Days days, Instant now) {
        Instant lost = lostAt;
        return lost != null && days.dayOf(lost) >= days.dayOf(now);
    }

    /**
     * Every counter that counted a request, for {@link #restore} after a restart. With
     * {@code reserve}, each count is written higher by what it counted since the last snapshot (as
     * if requests went on at that pace until the gate was killed before the next one); without (a
     * graceful stop), as it is. One caller at a time.
     */
    public synchronized List<Kept> snapshot(boolean reserve) {
        List<Kept> kept = new ArrayList<>();
        Instant now = clock.instant();
        long mono = meter.currentTimeNanos();
        counters.asMap().forEach((app, day) -> day.kept(app, reserve, now, mono).ifPresent(kept::add));
        return kept;
    }

    /**
     * Puts back a counter kept before a restart, unless its day has ended by the wall clock or the
     * app counts already: its count stands until {@code kept.endsAt()}, and the counter moves on to
     * the next day only at the first start of day (in its zone) at or after that.
     */
    public void restore(Kept kept) {
        Instant now = clock.instant();
        if (!kept.endsAt().isAfter(now)) {
            return;
        }
        long mono = meter.currentTimeNanos();
        counters.asMap().computeIfAbsent(kept.app(), app -> new DayCounter(now, mono, daysIn(kept.zone()), kept.count(), kept.endsAt()));
    }

    /**
     * What was kept is lost (a corrupt file): from now on an app's counter that opens during the
     * day in force at {@code at} (in the app's zone) starts used up, until that day ends.
     */
    public void assumeUsedUpOn(Instant at) {
        lostAt = Objects.requireNonNull(at, "at");
    }

    /** The default zone: whose days count for apps without a zone of their own. */
    public ZoneId zone() {
        return zone;
    }

    /** How days are cut, for the log: calendar days, or fixed "days" of a length. */
    public String dayRule() {
        return dayLength.equals(ONE_DAY) ? "calendar days" : "days of " + dayLength + " from the epoch";
    }

    private Days daysIn(ZoneId z) {
        return daysByZone.computeIfAbsent(z, k -> dayLength.equals(ONE_DAY) ? new CalendarDays(k)
                : FixedDays.of(dayLength.toMillis(), k, clock.instant()));
    }

    /** Most apps counted at once. */
    public long maxCounters() {
        return maxCounters;
    }

    /** Apps with a counter now (an estimate). */
    public long size() {
        return counters.estimatedSize();
    }

    /**
     * How days are cut: which day an instant is in (a number that grows by one a day), when a day
     * starts, and the zone to show it in. Equal days are the same days (a zone change is a change of days).
     */
    interface Days {
        long dayOf(Instant now);

        Instant startOf(long day);

        ZoneId zone();
    }

    /** The zone's calendar days ({@code ZonedDateTime} rules: 23- and 25-hour days are what they are). */
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

    /**
     * "Days" of a fixed length in milliseconds from the epoch (a shortened day for tests and drills),
     * starting {@code shiftMillis} early: the zone's standard offset scaled to the day's length.
     */
    record FixedDays(long millis, long shiftMillis, ZoneId zone) implements Days {

        /** Days of {@code millis} shifted by {@code zone}'s standard offset at {@code now}, scaled. */
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

    /** A count above any daily limit: the day is used up. */
    static final long USED_UP = Long.MAX_VALUE / 4;

    /** {@code a + b}, or {@link Long#MAX_VALUE} where it would overflow. */
    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
