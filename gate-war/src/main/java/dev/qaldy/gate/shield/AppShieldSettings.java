package dev.qaldy.gate.shield;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One app's own shield settings, on top of the cell's: its plan, and user agents and address
 * ranges its owner blocks in addition to the cell's lists.
 *
 * @param plan               the plan's name (a plan the gate has no limits for counts as free)
 * @param blockedUserAgents  patterns searched in the User-Agent, in addition to the cell's
 * @param deniedRanges       address ranges refused, in addition to the cell's
 */
public record AppShieldSettings(String plan, List<Pattern> blockedUserAgents, IpRanges deniedRanges) {

    /** Every app's settings until it has its own: the free plan, nothing extra blocked. */
    public static final AppShieldSettings DEFAULT = new AppShieldSettings(Plan.FREE, List.of(), IpRanges.NONE);

    public AppShieldSettings {
        Objects.requireNonNull(plan, "plan");
        blockedUserAgents = List.copyOf(blockedUserAgents);
        Objects.requireNonNull(deniedRanges, "deniedRanges");
    }
}
