package dev.qaldy.control.schedules.entity;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.qaldy.control.platform.control.InvalidInput;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A standard 5-field (Unix) cron expression evaluated in an IANA time zone, and the ticks it
 * defines. Where the cell allows it ({@code qaldy.scheduler.allow-seconds}, off by default), also a
 * 6-field expression whose first field is the second (Spring's form, e.g. {@code *}{@code /10 * * * * *}
 * for every 10 seconds): same rules, finer ticks, for demos and tests that cannot wait for minutes.
 * This is where the DST rules live:
 * <ul>
 * <li>Ticks are what cron-utils' {@link ExecutionTime#nextExecution} gives over {@link ZonedDateTime}
 * in the zone, walking forward. Across a DST change the walk starts at the local midnight before
 * the range, because cron-utils answers differently depending on where in a repeated hour it
 * starts; from a midnight it is one fixed sequence.</li>
 * <li>Fall back (the hour 02:00–03:00 happens twice in Europe/Berlin): the repeated hour keeps its
 * ticks as cron-utils defines them: an hourly {@code 0 * * * *} fires at 02:00+02:00 and at
 * 02:00+01:00; a daily {@code 30 2 * * *} fires once, at the first 02:30 (+02:00).</li>
 * <li>Spring forward (02:00–03:00 does not exist): cron-utils skips a time in the gap; we add it,
 * moved forward by the length of the gap as {@link ZonedDateTime#ofLocal} does, so a daily
 * {@code 30 2 * * *} fires once that day, at 03:30+02:00. A moved tick that lands on an existing
 * one is one tick ({@code 0 * * * *} fires at 03:00 once).</li>
 * </ul>
 */
public final class CronRule {

    /** Longest cron expression accepted, in characters. */
    public static final int MAX_LENGTH = 120;
    /** The default zone, named "UTC" (not "Z"). */
    public static final ZoneId UTC = ZoneId.of("UTC");
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    /** Six fields, the first the second of the minute (cron-utils' Spring definition). */
    private static final CronParser WITH_SECONDS = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING));

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime inZone;
    private final boolean seconds;

    private CronRule(String expression, ZoneId zone, ExecutionTime inZone, boolean seconds) {
        this.expression = expression;
        this.zone = zone;
        this.inZone = inZone;
        this.seconds = seconds;
    }

    /**
     * Parses and checks a standard 5-field cron expression and a zone.
     *
     * @param zone an IANA zone id such as {@code Europe/Berlin}; null or blank means UTC
     * @throws InvalidInput naming what is wrong, for a bad expression, a bad zone, or an expression that never fires
     */
    public static CronRule of(String expression, String zone) {
        return of(expression, zone, false);
    }

    /**
     * As {@link #of(String, String)}; with {@code allowSeconds} a 6-field expression (seconds first)
     * is accepted too.
     *
     * @throws InvalidInput as {@link #of(String, String)}, and for 6 fields when they are not allowed
     */
    public static CronRule of(String expression, String zone, boolean allowSeconds) {
        if (expression == null || expression.isBlank()) {
            throw new InvalidInput("a cron expression is required, e.g. \"0 * * * *\" for every hour");
        }
        String cron = expression.trim().replaceAll("\\s+", " ");
        if (cron.length() > MAX_LENGTH) {
            throw new InvalidInput("the cron expression is longer than " + MAX_LENGTH + " characters");
        }
        ZoneId zoneId = zone(zone);
        boolean seconds = cron.split(" ").length == 6;
        if (seconds && !allowSeconds) {
            throw new InvalidInput("\"" + cron + "\" has 6 fields; this cell takes standard 5-field cron expressions"
                    + " (minute hour day-of-month month day-of-week, e.g. \"30 2 * * *\"): schedules with a seconds field"
                    + " need qaldy.scheduler.allow-seconds=true");
        }
        ExecutionTime time;
        try {
            time = ExecutionTime.forCron((seconds ? WITH_SECONDS : PARSER).parse(cron));
        } catch (IllegalArgumentException e) {
            throw new InvalidInput(seconds
                    ? "\"" + cron + "\" is not a 6-field cron expression (second minute hour day-of-month month"
                            + " day-of-week, e.g. \"*/10 * * * * *\"): " + e.getMessage()
                    : "\"" + cron + "\" is not a standard 5-field cron expression"
                            + " (minute hour day-of-month month day-of-week, e.g. \"30 2 * * *\"): " + e.getMessage());
        }
        CronRule rule = new CronRule(cron, zoneId, time, seconds);
        ZonedDateTime probe = ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, zoneId);
        if (time.nextExecution(probe).isEmpty() && time.nextExecution(ZonedDateTime.now(zoneId)).isEmpty()) {
            throw new InvalidInput("\"" + cron + "\" never fires");
        }
        return rule;
    }

    private static ZoneId zone(String zone) {
        if (zone == null || zone.isBlank()) {
            return UTC;
        }
        if (zone.length() > 64) {
            throw new InvalidInput("the time zone is longer than 64 characters");
        }
        try {
            return ZoneId.of(zone.trim());
        } catch (DateTimeException e) {
            throw new InvalidInput("\"" + zone.trim() + "\" is not a time zone: use an IANA name such as"
                    + " \"UTC\" or \"Europe/Berlin\"");
        }
    }

    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    /** Whether the expression has a seconds field (6 fields). */
    public boolean hasSeconds() {
        return seconds;
    }

    /**
     * The ticks in {@code (fromExclusive, toInclusive]}, oldest first. Callers keep the range
     * bounded (the catch-up window): every tick in it is listed.
     */
    public List<Instant> ticksBetween(Instant fromExclusive, Instant toInclusive) {
        if (!toInclusive.isAfter(fromExclusive)) {
            return List.of();
        }
        TreeSet<Instant> ticks = new TreeSet<>();
        ZonedDateTime cursor = walkStart(fromExclusive, toInclusive);
        while (true) {
            Optional<ZonedDateTime> next = inZone.nextExecution(cursor);
            if (next.isEmpty() || next.get().toInstant().isAfter(toInclusive)) {
                break;
            }
            cursor = next.get();
            if (cursor.toInstant().isAfter(fromExclusive)) {
                ticks.add(cursor.toInstant());
            }
        }
        for (Instant moved : gapTicks(fromExclusive.minusSeconds(86_400), toInclusive)) {
            if (moved.isAfter(fromExclusive) && !moved.isAfter(toInclusive)) {
                ticks.add(moved);
            }
        }
        return List.copyOf(ticks);
    }

    /** The first tick after {@code after}, for showing the owner when it fires next; empty when none within a year. */
    public Optional<Instant> nextAfter(Instant after) {
        Instant to = after.plusSeconds(86_400);
        for (int day = 0; day < 366; day++) {
            List<Instant> ticks = ticksBetween(after, to);
            if (!ticks.isEmpty()) {
                return Optional.of(ticks.get(0));
            }
            after = to;
            to = to.plusSeconds(86_400);
        }
        return Optional.empty();
    }

    /**
     * Where the walk starts: just before the range, or the local midnight before it when a DST
     * change lies between that midnight and the end of the range (see the class comment).
     */
    private ZonedDateTime walkStart(Instant fromExclusive, Instant toInclusive) {
        ZonedDateTime from = fromExclusive.atZone(zone);
        ZonedDateTime midnight = from.toLocalDate().atStartOfDay(zone);
        ZoneOffsetTransition change = zone.getRules().nextTransition(midnight.toInstant().minusSeconds(1));
        if (change != null && !change.getInstant().isAfter(toInclusive)) {
            return midnight.minusSeconds(1);
        }
        return from;
    }

    /** Ticks whose local time falls in a spring-forward gap within the range, moved forward by the gap. */
    private List<Instant> gapTicks(Instant from, Instant to) {
        List<Instant> moved = new ArrayList<>();
        ZoneRules rules = zone.getRules();
        ZoneOffsetTransition change = rules.nextTransition(from);
        while (change != null && !change.getInstant().isAfter(to)) {
            if (change.isGap()) {
                moved.addAll(inGap(change));
            }
            change = rules.nextTransition(change.getInstant());
        }
        return moved;
    }

    private List<Instant> inGap(ZoneOffsetTransition gap) {
        // The cron's local times inside [before, after), read on a clock without DST (local time as UTC).
        ExecutionTime local = inZone;
        LocalDateTime start = gap.getDateTimeBefore();
        LocalDateTime end = gap.getDateTimeAfter();
        List<Instant> moved = new ArrayList<>();
        ZonedDateTime cursor = start.atZone(ZoneOffset.UTC).minusSeconds(1);
        while (true) {
            Optional<ZonedDateTime> next = local.nextExecution(cursor);
            if (next.isEmpty() || !next.get().toLocalDateTime().isBefore(end)) {
                break;
            }
            cursor = next.get();
            moved.add(ZonedDateTime.ofLocal(cursor.toLocalDateTime(), zone, null).toInstant());
        }
        return moved;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CronRule rule && rule.expression.equals(expression) && rule.zone.equals(zone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(expression, zone);
    }

    @Override
    public String toString() {
        return expression + " (" + zone + ")";
    }
}
