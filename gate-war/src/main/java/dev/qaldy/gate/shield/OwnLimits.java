package dev.qaldy.gate.shield;

/**
 * The limits an app's owner set, 0 where the plan's applies. They only tighten
 * ({@link #tighten}), so cost and abuse limits stay the cell's.
 *
 * @param perAppPerDay in the app's day, in its zone
 */
public record OwnLimits(long perClientPerMinute, long perAppPerMinute, long perAppPerDay) {

    public static final OwnLimits NONE = new OwnLimits(0, 0, 0);

    public OwnLimits {
        if (perClientPerMinute < 0 || perAppPerMinute < 0 || perAppPerDay < 0) {
            throw new IllegalArgumentException("own limits are 0 (the plan's) or positive");
        }
    }

    public boolean none() {
        return perClientPerMinute == 0 && perAppPerMinute == 0 && perAppPerDay == 0;
    }

    /** A lowered rate gets its default burst (ten seconds' worth), never more than the plan's. */
    public Plan tighten(Plan plan) {
        if (none()) {
            return plan;
        }
        return new Plan(plan.name(), lower(plan.perClient(), perClientPerMinute), lower(plan.perApp(), perAppPerMinute),
                perAppPerDay > 0 ? Math.min(plan.perAppPerDay(), perAppPerDay) : plan.perAppPerDay());
    }

    private static Limit lower(Limit limit, long perMinute) {
        if (perMinute <= 0 || perMinute >= limit.perMinute()) {
            return limit;
        }
        return new Limit(perMinute, Math.min(limit.burst(), Limit.defaultBurst(perMinute)));
    }
}
