package dev.qaldy.gate.shield;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One app's counter for {@link DailyLimits} (which owns the day rule). A request within the day
 * takes no monitor (issue 15: this monitor was an eighth of the gate's time under wrk): the day is
 * an immutable {@link Period}, the count a compare-and-set that never passes the limit. A count
 * racing the next day's opening may count one request in the new day, never fewer.
 */
final class DayCounter {

    /** How far the wall clock's day may outlast the monotonic one before its end moves out (drift is ms, a step back hours). */
    private static final long CLOCK_SLACK_NANOS = Duration.ofSeconds(1).toNanos();

    /**
     * @param date       the day's number in {@code days}
     * @param nextStart  the next day's start (wall clock)
     * @param endsAtMono when the day is over on the monotonic clock (ns); never before its wall-clock end
     */
    private record Period(DailyLimits.Days days, long date, Instant nextStart, ZonedDateTime next, long endsAtMono) {

        static Period of(DailyLimits.Days days, long date, Instant nextStart, long endsAtMono) {
            return new Period(days, date, nextStart, nextStart.atZone(days.zone()), endsAtMono);
        }

        /** Nanoseconds until this day is over on both clocks. */
        long wait(Instant now, long mono) {
            return Math.max(nanosUntil(now, nextStart), Math.max(0, endsAtMono - mono));
        }
    }

    private volatile Period period;
    private final AtomicLong count = new AtomicLong();
    private final AtomicBoolean refused = new AtomicBoolean();
    /** Under this counter's monitor. */
    private long countAtSnapshot;

    /** {@code usedUp}: what was kept was lost today. */
    DayCounter(Instant now, long mono, DailyLimits.Days days, boolean usedUp) {
        open(days, days.dayOf(now), now, mono);
        if (usedUp) {
            count.set(DailyLimits.USED_UP);
        }
    }

    /** A counter kept before a restart: {@code kept} stands at least until {@code endsAt} (wall clock). */
    DayCounter(Instant now, long mono, DailyLimits.Days days, long kept, Instant endsAt) {
        this(now, mono, days, false);
        count.set(kept);
        countAtSnapshot = kept;
        Period p = period;
        period = new Period(p.days(), p.date(), p.nextStart(), p.next(), Math.max(p.endsAtMono(), mono + nanosUntil(now, endsAt)));
    }

    /** {@code moved}: the time this counter must be kept grew, so the expiry its read set is too early. */
    record Counted(DailyLimits.Outcome outcome, boolean moved) {
    }

    /** @param wanted the app's days now (its zone may have changed) */
    Counted count(Instant now, long mono, long perDay, DailyLimits.Days wanted) {
        Period p = period;
        if (!now.isBefore(p.nextStart()) || !wanted.equals(p.days())
                || mono + nanosUntil(now, p.nextStart()) - p.endsAtMono() > CLOCK_SLACK_NANOS) {
            return turn(now, mono, wanted, perDay);
        }
        return new Counted(tally(p, now, mono, perDay), false);
    }

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

    private synchronized Counted turn(Instant now, long mono, DailyLimits.Days wanted, long perDay) {
        Period p = period;
        long keptBefore = p.endsAtMono();
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

    /** A zone change: today runs on to {@code wanted}'s first start of day at or after its end, so nothing is granted. */
    private void moveTo(DailyLimits.Days wanted) {
        Period p = period;
        Instant end = p.nextStart();
        long newDate = wanted.dayOf(end.minusNanos(1));
        Instant newEnd = wanted.startOf(newDate + 1);
        period = Period.of(wanted, newDate, newEnd, p.endsAtMono() + nanosUntil(end, newEnd));
    }

    /** Empty when it counted nothing. */
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

    /** Until its day is over on both clocks, plus {@link DailyLimits#KEPT_AFTER_ITS_DAY}. */
    long keepFor(long mono) {
        return DailyLimits.saturatedAdd(Math.max(0, period.endsAtMono() - mono), DailyLimits.KEPT_AFTER_ITS_DAY.toNanos());
    }

    /** 0 when passed; saturated a century ahead. */
    private static long nanosUntil(Instant now, Instant then) {
        Duration left = Duration.between(now, then);
        if (left.isNegative()) {
            return 0;
        }
        return left.compareTo(Duration.ofDays(365 * 100L)) > 0 ? Duration.ofDays(365 * 100L).toNanos() : left.toNanos();
    }
}
