package dev.qaldy.gate.shield;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One app's shield settings on top of the cell's: its plan (config), extra blocked user agents and
 * ranges (config and owner), the owner's lower limits and day zone.
 *
 * @param plan    a plan the gate has no limits for counts as free
 * @param dayZone null: the gate's default
 */
public record AppShieldSettings(String plan, List<Pattern> blockedUserAgents, IpRanges deniedRanges, OwnLimits limits,
        ZoneId dayZone) {

    /** The free plan, nothing extra blocked. */
    public static final AppShieldSettings DEFAULT = new AppShieldSettings(Plan.FREE, List.of(), IpRanges.NONE);

    public AppShieldSettings {
        Objects.requireNonNull(plan, "plan");
        blockedUserAgents = List.copyOf(blockedUserAgents);
        Objects.requireNonNull(deniedRanges, "deniedRanges");
        Objects.requireNonNull(limits, "limits");
    }

    /** Config's per-app entries, without owner limits. */
    public AppShieldSettings(String plan, List<Pattern> blockedUserAgents, IpRanges deniedRanges) {
        this(plan, blockedUserAgents, deniedRanges, OwnLimits.NONE, null);
    }

    /** The same plan, both block lists, the owner's limits and zone. */
    public AppShieldSettings with(OwnerSettings owner) {
        List<Pattern> agents = new ArrayList<>(blockedUserAgents);
        agents.addAll(owner.blockedUserAgents());
        return new AppShieldSettings(plan, agents, deniedRanges.plus(owner.deniedRanges()), owner.limits(), owner.dayZone());
    }
}
