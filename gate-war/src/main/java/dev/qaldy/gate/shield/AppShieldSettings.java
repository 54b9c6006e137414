package dev.qaldy.gate.shield;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One app's own shield settings, on top of the cell's: its plan (from config), user agents and
 * address ranges blocked in addition to the cell's lists (config and the owner's), and the limits
 * its owner lowered through the control plane.
 *
 * @param plan               the plan's name (a plan the gate has no limits for counts as free)
 * @param blockedUserAgents  patterns searched in the User-Agent, in addition to the cell's
 * @param deniedRanges       address ranges refused, in addition to the cell's
 * @param limits             the owner's lower limits ({@link OwnLimits#NONE}: the plan's)
 */
public record AppShieldSettings(String plan, List<Pattern> blockedUserAgents, IpRanges deniedRanges, OwnLimits limits) {

    /** Every app's settings until it has its own: the free plan, nothing extra blocked. */
    public static final AppShieldSettings DEFAULT = new AppShieldSettings(Plan.FREE, List.of(), IpRanges.NONE);

    public AppShieldSettings {
        Objects.requireNonNull(plan, "plan");
        blockedUserAgents = List.copyOf(blockedUserAgents);
        Objects.requireNonNull(deniedRanges, "deniedRanges");
        Objects.requireNonNull(limits, "limits");
    }

    /** Settings without limits of the owner's (config's per-app entries). */
    public AppShieldSettings(String plan, List<Pattern> blockedUserAgents, IpRanges deniedRanges) {
        this(plan, blockedUserAgents, deniedRanges, OwnLimits.NONE);
    }

    /**
     * These settings (config's) with what the owner set added: the same plan, both block lists,
     * the owner's limits.
     */
    public AppShieldSettings with(List<Pattern> ownerUserAgents, IpRanges ownerRanges, OwnLimits ownerLimits) {
        List<Pattern> agents = new ArrayList<>(blockedUserAgents);
        agents.addAll(ownerUserAgents);
        return new AppShieldSettings(plan, agents, deniedRanges.plus(ownerRanges), ownerLimits);
    }
}
