package dev.qaldy.control.billing.entity;

import java.util.List;

/**
 * An account's spending as its owner sees it ({@code GET /api/v1/billing}).
 *
 * @param period             the current period, {@code YYYY-MM} (UTC)
 * @param capCents           the owner's monthly cap in cents (the cell's default until they set one)
 * @param capIsDefault       true while the owner never set a cap
 * @param freeAllowanceCents usage each period that the cap does not count
 * @param limitCents         cap + free allowance: at this much usage the apps sleep
 * @param spentCents         usage billed in this period, in whole cents, rounded up
 * @param spentMillicents    the same, exactly
 * @param prices             the price list
 * @param apps               usage per app in this period
 * @param asleep             whether the account's apps are asleep (usage reached the limit)
 * @param nextPeriodStarts   when the next period starts (ISO-8601, UTC): sleeping apps wake then
 */
public record BillingView(String period, long capCents, boolean capIsDefault, long freeAllowanceCents, long limitCents,
        long spentCents, long spentMillicents, PriceView prices, List<AppUsage> apps, boolean asleep,
        String nextPeriodStarts) {

    /** The price list, in millicents (1/1000 cent). */
    public record PriceView(long requestMillicents, long cpuMsMillicents) {
    }

    /** One app's usage in the period. */
    public record AppUsage(String app, long requests, long cpuMs, long spentMillicents) {
    }
}
