package dev.qaldy.drill.rows;

import dev.qaldy.drill.cast.Cast;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The schedule's row in one pass: before the outage, the schedule's last fired tick and next
 * tick; the outage lasts past that next tick; after the return exactly one catch-up run (actor
 * {@code scheduler.catchup}) of a missed tick, and no ordinary run of a tick inside the outage;
 * after a cut ({@link #afterCut}), one ordinary run per tick inside it, run after the heal.
 */
public final class ScheduleCheck {

    /** How long after the return a catch-up's (carried, due) tick may be: twice the default scheduler's tick window. */
    static final Duration CARRIED_TICK_BOUND = Duration.ofSeconds(60);

    static final String WHO = "a schedule (the app's job, on a cron)";
    static final String CATCHUP_ACTOR = "scheduler.catchup";

    private final Cast cast;
    private Instant lastFiredBefore;
    private Instant nextTick;

    public ScheduleCheck(Cast cast) {
        this.cast = cast;
    }

    /**
     * Reads the schedule just before the outage; returns its next tick, which the outage must
     * outlast. A next tick less than {@code lead} away is let pass (it fires as usual) and the
     * schedule read again, so the tick returned falls inside the outage about to start.
     */
    public Instant before(Duration lead) {
        read();
        if (nextTick.isBefore(Instant.now().plus(lead))) {
            Instant passed = nextTick.plusSeconds(1);
            Cast.pauseUntil(passed);
            read();
        }
        return nextTick;
    }

    private void read() {
        JsonObject schedule = cast.schedule();
        lastFiredBefore = schedule.isNull("lastFiredTick") ? Instant.EPOCH : Instant.parse(schedule.getString("lastFiredTick"));
        nextTick = Instant.parse(schedule.getString("nextTick"));
    }

    /**
     * Waits up to {@code wait} for the catch-up run to succeed, then {@code settle} more (a few of
     * the scheduler's own ticks) and counts: one catch-up, none fired during the outage.
     *
     * @param outageStart when the control plane was stopped
     * @param restarting  when its start began (it may fire ordinary ticks before the start command
     *                    returns: ticks from here on are not "inside the outage")
     * @param returned    when the start command returned
     */
    public Check after(Instant outageStart, Instant restarting, Instant returned, Duration wait, Duration settle) {
        String expected = "nothing fired while down; one catch-up run (actor " + CATCHUP_ACTOR + ") of a tick missed since "
                + "the outage began, however many were missed";
        if (!nextTick.isBefore(returned)) {
            return new Check(SeedRow.SCHEDULES, Check.AFTER, WHO, expected, "no tick fell in the outage (next tick " + nextTick
                    + "); the drill's outage was too short", -1, false, null);
        }
        try {
            JsonObject caughtUp = firstSucceeded(() -> catchUps(returned), wait);
            long ms = Duration.between(returned, Instant.now()).toMillis();
            Cast.pause(settle);
            int catchUps = catchUps(returned).size();
            long firedWhileDown = ofSchedule().stream().filter(r -> r.getString("actor", "").equals("scheduler"))
                    .map(r -> Instant.parse(r.getString("tick")))
                    .filter(t -> !t.isBefore(outageStart) && t.isBefore(restarting)).count();
            String seen = (caughtUp == null ? "no catch-up run within " + wait.toSeconds() + " s"
                    : "catch-up of tick " + caughtUp.getString("tick") + " succeeded " + ms + " ms after the return")
                    + "; catch-up runs: " + catchUps + "; ordinary runs of ticks inside the outage: " + firedWhileDown;
            return new Check(SeedRow.SCHEDULES, Check.AFTER, WHO, expected, seen, caughtUp == null ? -1 : ms,
                    caughtUp != null && catchUps == 1 && firedWhileDown == 0, null);
        } catch (RuntimeException e) {
            return Check.broken(SeedRow.SCHEDULES, Check.AFTER, WHO, expected, e);
        }
    }

    /**
     * The cut pass's schedule row: the control plane stayed up, so its ticks were on time and nothing
     * is caught up; the run of each tick inside the cut could not reach the runtime host, waited in
     * the queue, and ran once after the heal. Waits up to {@code wait} for one such run to succeed,
     * then {@code settle} more, and counts.
     *
     * @param cut      when the links were cut
     * @param healing  when the heal began
     * @param healed   when the heal command returned
     */
    public Check afterCut(Instant cut, Instant healing, Instant healed, Duration wait, Duration settle) {
        String expected = "the ticks inside the cut fired on time (the API was up); each one's run waited for the runtime host"
                + " and ran once after the heal; no catch-up run";
        if (!nextTick.isBefore(healing)) {
            return new Check(SeedRow.SCHEDULES, Check.AFTER, WHO, expected, "no tick fell in the cut (next tick " + nextTick
                    + "); the drill's cut was too short", -1, false, null);
        }
        try {
            JsonObject ran = firstSucceeded(() -> inside(cut, healing), wait);
            long ms = Duration.between(healed, Instant.now()).toMillis();
            Cast.pause(settle);
            List<JsonObject> inside = inside(cut, healing);
            long ticks = inside.stream().map(r -> r.getString("tick")).distinct().count();
            long succeeded = inside.stream().filter(r -> r.getString("state", "").equals("succeeded")).count();
            long catchUps = ofSchedule().stream().filter(r -> r.getString("actor", "").equals(CATCHUP_ACTOR)
                    && Instant.parse(r.getString("tick")).isAfter(lastFiredBefore)).count();
            String seen = (ran == null ? "no run of a tick inside the cut succeeded within " + wait.toSeconds() + " s"
                    : "the run of tick " + ran.getString("tick") + " succeeded " + ms + " ms after the heal")
                    + "; runs of ticks inside the cut: " + inside.size() + " for " + ticks + " ticks, " + succeeded
                    + " succeeded; catch-up runs: " + catchUps;
            return new Check(SeedRow.SCHEDULES, Check.AFTER, WHO, expected, seen, ran == null ? -1 : ms,
                    ran != null && inside.size() == ticks && succeeded == ticks && catchUps == 0, null);
        } catch (RuntimeException e) {
            return Check.broken(SeedRow.SCHEDULES, Check.AFTER, WHO, expected, e);
        }
    }

    /** The first succeeded run among {@code runs}, asked every second for up to {@code wait}; null when none. */
    private static JsonObject firstSucceeded(java.util.function.Supplier<List<JsonObject>> runs, Duration wait) {
        Instant deadline = Instant.now().plus(wait);
        while (true) {
            JsonObject done = runs.get().stream().filter(r -> r.getString("state", "").equals("succeeded")).findFirst().orElse(null);
            if (done != null || !Instant.now().isBefore(deadline)) {
                return done;
            }
            Cast.pause(Duration.ofSeconds(1));
        }
    }

    /** The ordinary runs of ticks from {@code from} (inclusive) to {@code to}. */
    private List<JsonObject> inside(Instant from, Instant to) {
        return ofSchedule().stream().filter(r -> r.getString("actor", "").equals("scheduler"))
                .filter(r -> !Instant.parse(r.getString("tick")).isBefore(from) && Instant.parse(r.getString("tick")).isBefore(to))
                .toList();
    }

    /**
     * Catch-up runs of this outage: of a tick after the last one fired before it, and not long after
     * the return. A catch-up carries the tick that is due when it is planned (missed ticks and a due
     * one run once), so its tick may be a little after the start command returned.
     */
    private List<JsonObject> catchUps(Instant returned) {
        Instant latest = returned.plus(CARRIED_TICK_BOUND);
        return ofSchedule().stream().filter(r -> r.getString("actor", "").equals(CATCHUP_ACTOR)
                && Instant.parse(r.getString("tick")).isAfter(lastFiredBefore)
                && Instant.parse(r.getString("tick")).isBefore(latest)).toList();
    }

    private List<JsonObject> ofSchedule() {
        return cast.runs().stream().filter(r -> r.get("schedule") instanceof JsonNumber n && n.longValue() == cast.scheduleId)
                .toList();
    }
}
