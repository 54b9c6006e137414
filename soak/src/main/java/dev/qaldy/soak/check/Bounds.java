package dev.qaldy.soak.check;

import java.time.Duration;

/**
 * The durations the invariants judge by, each the cell's own setting (the seed's value by
 * default); a cell with shortened durations passes its own ({@code QALDY_SOAK_OPTS}:
 * {@code -Dqaldy.soak.<name>=<ISO-8601>}).
 *
 * @param accessFreshness  {@code qaldy.gate.access-freshness}: a remembered answer is used without asking (PT30S)
 * @param accessMemory     {@code qaldy.gate.access-memory}: longest a copy stands in for the API (seed: 30 min)
 * @param inTouch          {@code qaldy.gate.sync-max-gap}: a gate's copies count only when it synced this soon before a failure (PT10S)
 * @param settle           after a component is back, how long it may still fail as it finds the others again (PT10S)
 * @param capPropagation   longest from the API's "asleep" to a gate's, the API and the gate up: its
 *                         {@code qaldy.cap.refresh} (PT15S) and its calls' timeouts, on a loaded machine (PT45S)
 * @param recovery         every path works again this soon after a round's last fault healed (issue 14: 60 s)
 * @param hangWait         longest a person on the copy may wait while the API hangs (issue 14, finding 2; PT1S)
 * @param hangGrace        the first part of a hang in which they may still wait (finding 2: "after the first 2 s"; PT2S)
 * @param catchUpWindow    {@code qaldy.scheduler.catchup-window}: no catch-up of an older tick (seed: 6 h)
 * @param tickInterval     {@code qaldy.scheduler.tick-interval}: a tick is on time within twice this (PT15S)
 * @param shieldDay        {@code qaldy.gate.shield.day-length} in UTC: the daily limit's day (P1D)
 * @param liveFreshness    {@code qaldy.runtime.live-freshness}: the runtime host may use its last answer about an
 *                         app's live version (also "none yet") this long without asking (PT5S)
 */
public record Bounds(Duration accessFreshness, Duration accessMemory, Duration inTouch, Duration settle, Duration capPropagation,
        Duration recovery, Duration hangWait, Duration hangGrace, Duration catchUpWindow, Duration tickInterval, Duration shieldDay,
        Duration liveFreshness) {

    /** The seed's values and the cell's defaults. */
    public static Bounds defaults() {
        return new Bounds(Duration.ofSeconds(30), Duration.ofMinutes(30), Duration.ofSeconds(10), Duration.ofSeconds(10),
                Duration.ofSeconds(45), Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofHours(6),
                Duration.ofSeconds(15), Duration.ofDays(1), Duration.ofSeconds(5));
    }

    /**
     * The defaults, each replaced by {@code -Dqaldy.soak.<kebab-name>} when set
     * ({@code qaldy.soak.access-memory=PT1S}); {@link IllegalArgumentException} naming a bad one.
     */
    public static Bounds fromSystemProperties() {
        Bounds d = defaults();
        return new Bounds(get("access-freshness", d.accessFreshness), get("access-memory", d.accessMemory), get("in-touch", d.inTouch),
                get("settle", d.settle), get("cap-propagation", d.capPropagation), get("recovery", d.recovery),
                get("hang-wait", d.hangWait), get("hang-grace", d.hangGrace), get("catch-up-window", d.catchUpWindow),
                get("tick-interval", d.tickInterval), get("shield-day", d.shieldDay), get("live-freshness", d.liveFreshness));
    }

    private static Duration get(String name, Duration otherwise) {
        String value = System.getProperty("qaldy.soak." + name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return Duration.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("qaldy.soak." + name + " must be an ISO-8601 duration such as PT30S, not '" + value + "'");
        }
    }
}
