package dev.qaldy.gate.shield;

/**
 * The limits an app's owner set through the control plane, each 0 where the plan's value applies.
 * They only tighten: each is applied where it is lower than the plan's ({@link #tighten}), so an
 * owner can never give an app more than its plan (cost and abuse limits stay the cell's).
 *
 * @param perClientPerMinute requests a minute per client address on the app
 * @param perAppPerMinute    requests a minute for everyone on the app together
 * @param perAppPerDay       requests a day (the app's day, in its zone)
 */
public record OwnLimits(long perClientPerMinute, long perAppPerMinute, long perAppPerDay) {

    /** Nothing set: the plan's limits. */
    public static final OwnLimits NONE = new OwnLimits(0, 0, 0);

    public OwnLimits {
        if (perClientPerMinute < 0 || perAppPerMinute < 0 || perAppPerDay < 0) {
            throw new IllegalArgumentException("own limits are 0 (the plan's) or positive");
        }
    }

    /** True when nothing is set. */
    public boolean none() {
        return perClientPerMinute == 0 && perAppPerMinute == 0 && perAppPerDay == 0;
    }

    /**
     * {@code plan} with every limit set here that is lower than the plan's; a lowered rate gets the
     * default burst for it (ten seconds' worth), never more than the plan's burst.
     */
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
