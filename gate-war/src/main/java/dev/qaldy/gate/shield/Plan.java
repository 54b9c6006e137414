package dev.qaldy.gate.shield;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What an app's plan allows at the gate: a token bucket per (client, app), one per app, and
 * requests per app per local day.
 *
 * @param name         e.g. {@code free}
 * @param perClient    each client address on this app
 * @param perApp       everyone on this app together
 * @param perAppPerDay requests the app serves per day (the day of the app's zone: its owner's dayZone, else the gate's day-zone)
 */
public record Plan(String name, Limit perClient, Limit perApp, long perAppPerDay) {

    /** Plan names are config key segments: lower-case letters, digits and '-'. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    /** The plan every app has until its settings say otherwise. */
    public static final String FREE = "free";

    /** The free plan's built-in defaults: 600 a minute per client, 6000 per app, 100 000 a day. */
    public static final Plan FREE_DEFAULTS = new Plan(FREE, new Limit(600, 100), new Limit(6000, 1000), 100_000);

    public Plan {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(perClient, "perClient");
        Objects.requireNonNull(perApp, "perApp");
        if (perAppPerDay < 1) {
            throw new IllegalArgumentException("plan " + name + ": per-app-per-day must be at least 1: " + perAppPerDay);
        }
    }
}
