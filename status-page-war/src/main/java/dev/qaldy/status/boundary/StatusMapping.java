package dev.qaldy.status.boundary;

import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.groups.entity.UseGroup;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ComponentStatus;
import dev.qaldy.status.probes.entity.Reason;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * From the status page's own states to the words public status pages use, for one component and
 * for a whole cell or page. Never green without fresh data: a component whose latest probe is
 * older than {@code staleAfter}, or that was never probed, is {@code unknown}.
 */
public final class StatusMapping {

    /** The overall indicator, as in Statuspage's summary. */
    public enum Indicator {
        NONE, MINOR, MAJOR, CRITICAL;

        /** The JSON word, e.g. {@code critical}. */
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The status of a group of components.
     *
     * @param indicator   how bad
     * @param description in plain words
     */
    public record Overall(Indicator indicator, String description) {
    }

    private StatusMapping() {
    }

    /** The status of a component in {@code state} ({@code null}: never probed) at {@code nowMs}. */
    public static ComponentStatus status(ComponentState state, long nowMs, Duration staleAfter, Duration slowAfter) {
        if (state == null || !state.fresh(nowMs, staleAfter)) {
            return ComponentStatus.UNKNOWN;
        }
        return switch (state.health()) {
            case UP -> state.latencyMs() != null && state.latencyMs() >= slowAfter.toMillis()
                    ? ComponentStatus.DEGRADED_PERFORMANCE : ComponentStatus.OPERATIONAL;
            case DOWN -> state.starting() ? ComponentStatus.STARTING : ComponentStatus.MAJOR_OUTAGE;
            // while the control plane starts, what only it reports is starting too
            case UNKNOWN -> state.starting() && state.reason() == Reason.REPORTER_DOWN
                    ? ComponentStatus.STARTING : ComponentStatus.UNKNOWN;
        };
    }

    /**
     * The status of a group: critical when something is down and nothing works, major when
     * something is down, minor when something is starting, slow or unknown, none only when all work.
     */
    public static Overall overall(Collection<ComponentStatus> statuses) {
        if (statuses.isEmpty()) {
            return new Overall(Indicator.MINOR, "No components are watched.");
        }
        boolean down = statuses.contains(ComponentStatus.MAJOR_OUTAGE) || statuses.contains(ComponentStatus.PARTIAL_OUTAGE);
        boolean working = statuses.contains(ComponentStatus.OPERATIONAL) || statuses.contains(ComponentStatus.DEGRADED_PERFORMANCE);
        boolean slow = statuses.contains(ComponentStatus.DEGRADED_PERFORMANCE);
        boolean unknown = statuses.contains(ComponentStatus.UNKNOWN);
        boolean starting = statuses.contains(ComponentStatus.STARTING);
        if (down && !working) {
            return new Overall(Indicator.CRITICAL, "Major outage");
        }
        if (down) {
            return new Overall(Indicator.MAJOR, "Partial outage");
        }
        if (starting) {
            return new Overall(Indicator.MINOR, slow || unknown ? "Some components are starting, slow or have no recent data"
                    : "Starting up");
        }
        if (slow && unknown) {
            return new Overall(Indicator.MINOR, "Some components are slow or have no recent data");
        }
        if (unknown) {
            return new Overall(Indicator.MINOR, "Some components have no recent data");
        }
        if (slow) {
            return new Overall(Indicator.MINOR, "Degraded performance");
        }
        return new Overall(Indicator.NONE, "All systems operational");
    }

    /**
     * The status of a page or cell from its groups, as people feel it: critical (a major outage)
     * when apps are down or every group is, major (a partial outage) when any group is down or
     * partly down; otherwise as for components.
     */
    public static Overall overallOfGroups(List<GroupStatus> groups) {
        if (groups.isEmpty()) {
            return new Overall(Indicator.MINOR, "No components are watched.");
        }
        boolean appsDown = groups.stream().anyMatch(g -> g.group() == UseGroup.APPS && g.status() == ComponentStatus.MAJOR_OUTAGE);
        if (appsDown || groups.stream().allMatch(g -> g.status() == ComponentStatus.MAJOR_OUTAGE)) {
            return new Overall(Indicator.CRITICAL, "Major outage");
        }
        if (groups.stream().anyMatch(g -> g.status().outage())) {
            return new Overall(Indicator.MAJOR, "Partial outage");
        }
        return overall(groups.stream().map(GroupStatus::status).toList());
    }
}
