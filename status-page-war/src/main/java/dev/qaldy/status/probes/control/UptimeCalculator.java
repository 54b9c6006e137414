package dev.qaldy.status.probes.control;

import dev.qaldy.status.probes.entity.DayCount;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Uptime per component and UTC day from the day counts: the share of probes that found it up
 * among those that found it up or down. Probes that could not tell (unknown) and days without
 * probes count for nothing: such a day has no uptime ({@code null}, "no data"), never 100 %.
 */
public final class UptimeCalculator {

    private UptimeCalculator() {
    }

    /**
     * Uptime on one UTC day.
     *
     * @param date    the day
     * @param percent 0 to 100, rounded down to two decimals (so any down probe shows below 100); {@code null}: no data
     * @param up      probes that found it up
     * @param down    probes that found it down
     * @param unknown probes that could not tell
     */
    public record DayUptime(LocalDate date, Double percent, int up, int down, int unknown) {
    }

    /**
     * Uptime of one component over the last days.
     *
     * @param componentId the component's id
     * @param percent      over the days that have data, as for a day; {@code null} when no day has data
     * @param daysWithData how many of {@code days} have data (an uptime): {@code percent} covers only
     *                     these, so a page must say so ("100 % over 1 day of data"), never imply all days
     * @param days         oldest first, one per day, ending today
     */
    public record ComponentUptime(String componentId, Double percent, int daysWithData, List<DayUptime> days) {
    }

    /** The uptime of {@code componentId} over the {@code days} UTC days ending {@code today}, from {@code counts} of any components. */
    public static ComponentUptime uptime(String componentId, List<DayCount> counts, LocalDate today, int days) {
        return uptime(componentId, counts, today, days, true);
    }

    /**
     * As {@link #uptime(String, List, LocalDate, int)}; with {@code todayKnown} false (the page
     * cannot tell how the component is doing now: unknown, no fresh data, or still starting) today
     * has no uptime ("no data", never a green bar beside an "Unknown") and its probes are left out
     * of the total, though its counts stay.
     */
    public static ComponentUptime uptime(String componentId, List<DayCount> counts, LocalDate today, int days,
            boolean todayKnown) {
        Map<Long, DayCount> byDay = new HashMap<>();
        for (DayCount count : counts) {
            if (count.componentId().equals(componentId)) {
                byDay.merge(count.epochDay(), count, (a, b) -> new DayCount(componentId, a.epochDay(),
                        a.up() + b.up(), a.down() + b.down(), a.unknown() + b.unknown()));
            }
        }
        List<DayUptime> list = new ArrayList<>(days);
        long up = 0;
        long down = 0;
        int withData = 0;
        for (LocalDate date = today.minusDays(days - 1L); !date.isAfter(today); date = date.plusDays(1)) {
            DayCount count = byDay.get(date.toEpochDay());
            if (count == null) {
                list.add(new DayUptime(date, null, 0, 0, 0));
            } else if (!todayKnown && date.equals(today)) {
                list.add(new DayUptime(date, null, count.up(), count.down(), count.unknown()));
            } else {
                Double percent = percent(count.up(), count.down());
                list.add(new DayUptime(date, percent, count.up(), count.down(), count.unknown()));
                withData += percent == null ? 0 : 1;
                up += count.up();
                down += count.down();
            }
        }
        return new ComponentUptime(componentId, percent(up, down), withData, List.copyOf(list));
    }

    /** {@code up} as a percentage of {@code up + down}, rounded down to two decimals; {@code null} when both are 0. */
    public static Double percent(long up, long down) {
        long total = up + down;
        if (total == 0) {
            return null;
        }
        return Math.floor(up * 10_000.0 / total) / 100.0;
    }
}
