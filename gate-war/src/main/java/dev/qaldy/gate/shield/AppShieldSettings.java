package dev.qaldy.gate.shield;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One app's own shield settings, on top of the cell's: its plan (from config), user agents and
 * address ranges blocked in addition to the cell's lists (config and the owner's), and the limits
 * its owner lowered through the control plane, and the zone of its day its owner chose.
 *
 * @param plan               the plan's name (a plan the gate has no limits for counts as free)
 * @param blockedUserAgents  patterns searched in the User-Agent, in addition to the cell's
 * @param deniedRanges       address ranges refused, in addition to the cell's
 * @param limits             the owner's lower limits ({@link OwnLimits#NONE}: the plan's)
 * @param dayZone            the zone whose days the daily limit counts; null: the gate's default
 */
public record AppShieldSettings(String plan, List<Pattern> blockedUserAgents, IpRanges deniedRanges, OwnLimits limits,
        ZoneId dayZone) {

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
        this(plan, blockedUserAgents, deniedRanges, OwnLimits.NONE, null);
    }

    /**
     * These settings (config's) with what the owner set added: the same plan, both block lists,
     * the owner's limits and zone.
     */
    public AppShieldSettings with(OwnerSettings owner) {
        List<Pattern> agents = new ArrayList<>(blockedUserAgents);
        agents.addAll(owner.blockedUserAgents());
        return new AppShieldSettings(plan, agents, deniedRanges.plus(owner.deniedRanges()), owner.limits(), owner.dayZone());
    }
}
