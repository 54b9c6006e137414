package dev.qaldy.gate.shield;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One app's daily counter for {@link DailyLimits}: its day (zone, date, when it ends on both
 * clocks) and the count. A request within the day takes no monitor (issue 15: every request of a
 * busy app waited on this counter's monitor, an eighth of the gate's time under wrk): the day is an
 * immutable {@link Period} read once, the count a compare-and-set that never passes the limit. The
 * monitor is taken only when the day may change: the wall clock reached the next day's start, the
 * app's zone changed, or the wall clock stepped back so far that the day must be kept longer.
 *
 * <p>A count racing with the opening of the next day lands in whichever day the count has when it
 * is set; it may count one request in the new day that belonged to the old one, never fewer.
 */
final class DayCounter {

    /**
     * How far the wall clock may say the day lasts longer than the monotonic clock does before the
     * day's monotonic end is moved out (the clocks drift by milliseconds; a step back is hours).
     */
    private static final long CLOCK_SLACK_NANOS = Duration.ofSeconds(1).toNanos();

    /**
     * One day of this counter, never changed once made.
     *
     * @param days       how days are cut (zone)
     * @param date       the day's number in {@code days}
     * @param nextStart  the next day's start (wall clock), worked out once per day
     * @param next       the same, zoned, for the answer's {@code nextDay}
     * @param endsAtMono when this day is over on the monotonic clock (ns); it never ends earlier than
     *                   its wall-clock end as seen by any request
     */
    private record Period(DailyLimits.Days days, long date, Instant nextStart, ZonedDateTime next, long endsAtMono) {

        static Period of(DailyLimits.Days days, long date, Instant nextStart, long endsAtMono) {
            return new Period(days, date, nextStart, nextStart.atZone(days.zone()), endsAtMono);
        }

        /** Nanoseconds until this day is over on both clocks, seen at {@code now} and {@code mono}. */
        long wait(Instant now, long mono) {
            return Math.max(nanosUntil(now, nextStart), Math.max(0, endsAtMono - mono));
        }
    }

    private volatile Period period;
    private final AtomicLong count = new AtomicLong();
    /** Whether a request was refused on this date (the first refusal is worth a log line). */
    private final AtomicBoolean refused = new AtomicBoolean();
    /** The count at the last snapshot, for its reserve; under this counter's monitor. */
    private long countAtSnapshot;

    /** A counter opening now; {@code usedUp}: what was kept was lost today, so today counts as used up. */
    DayCounter(Instant now, long mono, DailyLimits.Days days, boolean usedUp) {
        open(days, days.dayOf(now), now, mono);
        if (usedUp) {
            count.set(DailyLimits.USED_UP);
        }
    }

    /** A counter kept before a restart: {@code kept} stands until {@code endsAt} (wall clock), at least. */
    DayCounter(Instant now, long mono, DailyLimits.Days days, long kept, Instant endsAt) {
        this(now, mono, days, false);
        count.set(kept);
        countAtSnapshot = kept;
        Period p = period;
        period = new Period(p.days(), p.date(), p.nextStart(), p.next(), Math.max(p.endsAtMono(), mono + nanosUntil(now, endsAt)));
    }

    /**
     * What one count said, and whether the time this counter must be kept grew with it (a later date,
     * another zone, the wall clock stepped back): the expiry its read set is then too early.
     */
    record Counted(DailyLimits.Outcome outcome, boolean moved) {
    }

    /**
     * Counts one request unless {@code perDay} were counted on this date already.
     *
     * @param now    the wall clock
     * @param mono   the monotonic clock (ns)
     * @param wanted the app's days now (its zone may have changed)
     */
    Counted count(Instant now, long mono, long perDay, DailyLimits.Days wanted) {
        Period p = period;
        if (!now.isBefore(p.nextStart()) || !wanted.equals(p.days())
                || mono + nanosUntil(now, p.nextStart()) - p.endsAtMono() > CLOCK_SLACK_NANOS) {
            return turn(now, mono, wanted, perDay);
        }
        return new Counted(tally(p, now, mono, perDay), false);
    }

    /** The count within {@code p}: a compare-and-set that never passes {@code perDay}. */
    private DailyLimits.Outcome tally(Period p, Instant now, long mono, long perDay) {
        long c;
        do {
            c = count.get();
            if (c >= perDay) {
                boolean first = refused.compareAndSet(false, true);
                return new DailyLimits.Outcome(false, perDay, 0, p.wait(now, mono), p.next(), first);
            }
        } while (!count.compareAndSet(c, c + 1));
        return new DailyLimits.Outcome(true, perDay, perDay - c - 1, 0, p.next(), false);
    }

    /** The day may change: a new date once both clocks agree, a move to {@code wanted}'s days, a longer end. */
    private synchronized Counted turn(Instant now, long mono, DailyLimits.Days wanted, long perDay) {
        Period p = period;
        long keptBefore = p.endsAtMono();
        // Before the next day's start the wall clock's date is this one (or earlier: the clock stepped back).
        long wallDate = now.isBefore(p.nextStart()) ? p.date() : p.days().dayOf(now);
        if (wallDate > p.date() && mono - p.endsAtMono() >= 0) {
            open(p.days(), wallDate, now, mono);
        }
        if (!wanted.equals(period.days())) {
            moveTo(wanted);
        }
        p = period;
        long wallEnd = mono + nanosUntil(now, p.nextStart());
        if (wallEnd - p.endsAtMono() > 0) {
            period = p = new Period(p.days(), p.date(), p.nextStart(), p.next(), wallEnd);
        }
        return new Counted(tally(p, now, mono, perDay), p.endsAtMono() - keptBefore > 0);
    }

    private void open(DailyLimits.Days days, long date, Instant now, long mono) {
        Instant nextStart = days.startOf(date + 1);
        refused.set(false);
        count.set(0);
        period = Period.of(days, date, nextStart, mono + nanosUntil(now, nextStart));
    }

    /**
     * A change of zone: today runs on to the first start of day in {@code wanted} at or after its
     * end (never earlier, so nothing is granted), with its count; then {@code wanted}'s days.
     */
    private void moveTo(DailyLimits.Days wanted) {
        Period p = period;
        Instant end = p.nextStart();
        long newDate = wanted.dayOf(end.minusNanos(1));
        Instant newEnd = wanted.startOf(newDate + 1);
        period = Period.of(wanted, newDate, newEnd, p.endsAtMono() + nanosUntil(end, newEnd));
    }

    /** This counter as kept across a restart; empty when it counted nothing. */
    synchronized Optional<DailyLimits.Kept> kept(String app, boolean reserve, Instant now, long mono) {
        long c = count.get();
        if (c == 0) {
            return Optional.empty();
        }
        long written = reserve ? DailyLimits.saturatedAdd(c, Math.max(0, c - countAtSnapshot)) : c;
        countAtSnapshot = c;
        Period p = period;
        Instant monoEnd = now.plusNanos(Math.max(0, p.endsAtMono() - mono));
        Instant end = monoEnd.isAfter(p.nextStart()) ? monoEnd : p.nextStart();
        return Optional.of(new DailyLimits.Kept(app, p.days().zone(), Math.min(written, DailyLimits.USED_UP), end));
    }

    /**
     * How long to keep this counter, seen at {@code mono} (ns): until its day is over on both clocks,
     * then {@link DailyLimits#KEPT_AFTER_ITS_DAY}, so a dropped counter is never one still in force.
     */
    long keepFor(long mono) {
        return DailyLimits.saturatedAdd(Math.max(0, period.endsAtMono() - mono), DailyLimits.KEPT_AFTER_ITS_DAY.toNanos());
    }

    /** Nanoseconds from {@code now} to {@code then}; 0 when it has passed, saturated a century ahead. */
    private static long nanosUntil(Instant now, Instant then) {
        Duration left = Duration.between(now, then);
        if (left.isNegative()) {
            return 0;
        }
        return left.compareTo(Duration.ofDays(365 * 100L)) > 0 ? Duration.ofDays(365 * 100L).toNanos() : left.toNanos();
    }
}
