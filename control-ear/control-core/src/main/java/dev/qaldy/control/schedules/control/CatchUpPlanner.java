package dev.qaldy.control.schedules.control;

import dev.qaldy.control.schedules.entity.CronRule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one schedule should fire now, decided only from our own tables (its last fired tick and
 * when it was created), never from a timer store. Pure: the same inputs always give the same plan.
 * <p>
 * Seed: "a schedule that missed a tick in the last 6 hours runs once, however many ticks it missed
 * … Older ticks are not made up." The rules, in order:
 * <ol>
 * <li>Never a tick at or before the last fired one (nor, for a schedule that never fired, at or
 * before its creation): a wall clock stepping back re-fires nothing.</li>
 * <li>A tick is <em>due now</em> when it lies within {@code grace} before now (the scheduler looks
 * every tick interval; grace is twice that); older ticks since the last fired one were
 * <em>missed</em>.</li>
 * <li>Missed ticks within {@code window} before now → one catch-up run (actor
 * {@code scheduler.catchup}), however many there are, carrying the newest tick up to now: the
 * newest missed one, or the one due right now when there is one, which the catch-up covers (a
 * schedule that comes back just as a tick is due runs once, not a catch-up and then that tick;
 * found by bin/qaldy drill). Missed ticks older than the window are not made up.</li>
 * <li>Otherwise the newest tick due now → an ordinary run (actor {@code scheduler}). After a
 * catch-up the planner is asked again and finds nothing more to run.</li>
 * </ol>
 */
public final class CatchUpPlanner {

    /** What to fire. */
    public sealed interface Plan {
    }

    /** Nothing is due. */
    public record Nothing() implements Plan {
    }

    /** The tick due now, actor {@code scheduler}. */
    public record Ordinary(Instant tick) implements Plan {
    }

    /** One run for all missed ticks within the window (and a tick due now), carrying the newest; actor {@code scheduler.catchup}. */
    public record CatchUp(Instant tick) implements Plan {
    }

    private final Duration window;
    private final Duration grace;

    /**
     * @param window how far back missed ticks are made up (seed: 6 h)
     * @param grace  how old a tick may be and still be due now (twice the scheduler's tick interval)
     */
    public CatchUpPlanner(Duration window, Duration grace) {
        this.window = Objects.requireNonNull(window, "window");
        this.grace = Objects.requireNonNull(grace, "grace");
        if (window.isNegative() || grace.isNegative() || grace.isZero()) {
            throw new IllegalArgumentException("window must not be negative and grace must be positive");
        }
    }

    /**
     * The plan for one schedule at {@code now}.
     *
     * @param lastFired the last tick fired, or null when it never fired
     * @param createdAt when the schedule was added: ticks before it were never due
     */
    public Plan plan(Instant now, CronRule rule, Instant lastFired, Instant createdAt) {
        Instant baseline = lastFired != null ? lastFired : createdAt;
        if (!now.isAfter(baseline)) {
            return new Nothing();
        }
        Instant windowStart = now.minus(window.compareTo(grace) > 0 ? window : grace);
        Instant from = baseline.isAfter(windowStart) ? baseline : windowStart;
        List<Instant> ticks = rule.ticksBetween(from, now);
        Instant dueSince = now.minus(grace);
        Instant newestMissed = null;
        Instant newestDue = null;
        for (Instant tick : ticks) {
            if (tick.isAfter(dueSince)) {
                newestDue = tick;
            } else if (!tick.isBefore(now.minus(window))) {
                newestMissed = tick;
            }
        }
        if (newestMissed != null) {
            return new CatchUp(newestDue != null ? newestDue : newestMissed);
        }
        if (newestDue != null) {
            return new Ordinary(newestDue);
        }
        return new Nothing();
    }

    public Duration window() {
        return window;
    }

    public Duration grace() {
        return grace;
    }
}
