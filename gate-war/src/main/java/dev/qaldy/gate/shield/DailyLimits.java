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
import java.util.Objects;

/**
 * Requests per app per local day, counted in the gate's memory: the day of {@code zone} (default
 * UTC), from its start of day ({@code ZonedDateTime} rules, so 23- and 25-hour days are what they
 * are) to the next date's start of day.
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
 * <p>Counters live in memory: a restarted gate starts counting from zero. An idle counter is
 * dropped an hour after its date is over on both clocks, so dropping it grants nothing; at most
 * {@code maxCounters} are kept, and past that the least used go first (an app whose counter was
 * pushed out starts again from zero: the price of bounded memory under a flood of app names).
 */
public final class DailyLimits {

    /**
     * What the day's counter said to one request.
     *
     * @param allowed        counted and let through
     * @param limit          requests per day
     * @param remaining      requests left today
     * @param nanosToNextDay until the counter moves to the next day (both clocks agreeing)
     * @param nextDay        when the next day starts in the zone
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

    private final Clock clock;
    private final TimeMeter meter;
    private final ZoneId zone;
    private final Cache<String, Day> days;

    /**
     * @param clock       the wall clock: which date it is
     * @param meter       the monotonic clock (nanoseconds): how long a day has run
     * @param zone        the zone whose days count
     * @param maxCounters most apps counted at once
     */
    public DailyLimits(Clock clock, TimeMeter meter, ZoneId zone, long maxCounters) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.zone = Objects.requireNonNull(zone, "zone");
        if (meter.isWallClockBased()) {
            throw new IllegalArgumentException("daily limits need a monotonic time meter besides the wall clock");
        }
        this.days = Caffeine.newBuilder()
                .maximumSize(maxCounters)
                .ticker(meter::currentTimeNanos)
                .executor(Runnable::run)
                .expireAfter(new Expiry<String, Day>() {
                    @Override
                    public long expireAfterCreate(String app, Day day, long now) {
                        return day.keepFor();
                    }

                    @Override
                    public long expireAfterUpdate(String app, Day day, long now, long left) {
                        return day.keepFor();
                    }

                    @Override
                    public long expireAfterRead(String app, Day day, long now, long left) {
                        return left; // every count is an update (compute), which sets the time anew
                    }
                })
                .build();
    }

    /** Counts one request for {@code app} unless it already reached {@code perDay} today. */
    public Outcome count(String app, long perDay) {
        Instant now = clock.instant();
        long mono = meter.currentTimeNanos();
        Outcome[] outcome = new Outcome[1];
        // compute, not get: the counter's expiry is set anew from its state after this count
        days.asMap().compute(app, (a, day) -> {
            Day counter = day == null ? new Day(now, mono, zone) : day;
            outcome[0] = counter.count(now, mono, perDay, zone);
            return counter;
        });
        return outcome[0];
    }

    /** The zone whose days count. */
    public ZoneId zone() {
        return zone;
    }

    /** Apps with a counter now (an estimate). */
    public long size() {
        return days.estimatedSize();
    }

    /** One app's counter: its date, when that date ends on the monotonic clock, and the count. */
    static final class Day {
        private LocalDate date;
        private long endsAtMono;
        private long count;
        private boolean refused;
        /** How long, from the last request, until this date is over on both clocks (nanoseconds). */
        private long leftAtLastRequest;

        Day(Instant now, long mono, ZoneId zone) {
            open(now.atZone(zone).toLocalDate(), now, mono, zone);
        }

        private void open(LocalDate newDate, Instant now, long mono, ZoneId zone) {
            date = newDate;
            count = 0;
            refused = false;
            endsAtMono = mono + nanosUntil(now, startOf(newDate.plusDays(1), zone));
        }

        synchronized Outcome count(Instant now, long mono, long perDay, ZoneId zone) {
            LocalDate wallDate = now.atZone(zone).toLocalDate();
            if (wallDate.isAfter(date) && mono - endsAtMono >= 0) {
                open(wallDate, now, mono, zone);
            }
            ZonedDateTime next = date.plusDays(1).atStartOfDay(zone);
            long wait = Math.max(nanosUntil(now, next.toInstant()), Math.max(0, endsAtMono - mono));
            leftAtLastRequest = wait;
            if (count >= perDay) {
                boolean first = !refused;
                refused = true;
                return new Outcome(false, perDay, 0, wait, next, first);
            }
            count++;
            return new Outcome(true, perDay, perDay - count, 0, next, false);
        }

        /** How long to keep this counter after its last request. */
        synchronized long keepFor() {
            return leftAtLastRequest + KEPT_AFTER_ITS_DAY.toNanos();
        }

        private static Instant startOf(LocalDate date, ZoneId zone) {
            return date.atStartOfDay(zone).toInstant();
        }

        /** Nanoseconds from {@code now} to {@code then}; 0 when it has passed, saturated far ahead. */
        private static long nanosUntil(Instant now, Instant then) {
            Duration left = Duration.between(now, then);
            if (left.isNegative()) {
                return 0;
            }
            return left.compareTo(Duration.ofDays(365 * 100L)) > 0 ? Duration.ofDays(365 * 100L).toNanos() : left.toNanos();
        }
    }
}
