package dev.qaldy.status.boundary;

import dev.qaldy.status.probes.entity.ComponentState;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;

/**
 * From the status page's own states to the words public status pages use, for one component and
 * for a whole cell or page. Never green without fresh data: a component whose latest probe is
 * older than {@code staleAfter}, or that was never probed, is {@code unknown}.
 */
public final class StatusMapping {

    /** A component's status, as in Atlassian Statuspage's summary (plus {@code unknown}). */
    public enum ComponentStatus {
        /** Up, answering within {@code slowAfter}. */
        OPERATIONAL,
        /** Up, but its readiness answer took {@code slowAfter} or longer. */
        DEGRADED_PERFORMANCE,
        /** Part of it is down; not produced for single processes, kept for the shape. */
        PARTIAL_OUTAGE,
        /** Down. */
        MAJOR_OUTAGE,
        /** No fresh probe data, or it cannot be checked. */
        UNKNOWN;

        /** The JSON word, e.g. {@code major_outage}. */
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

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
            case DOWN -> ComponentStatus.MAJOR_OUTAGE;
            case UNKNOWN -> ComponentStatus.UNKNOWN;
        };
    }

    /**
     * The status of a group: critical when something is down and nothing works, major when
     * something is down, minor when something is slow or unknown, none only when all work.
     */
    public static Overall overall(Collection<ComponentStatus> statuses) {
        if (statuses.isEmpty()) {
            return new Overall(Indicator.MINOR, "No components are watched.");
        }
        boolean down = statuses.contains(ComponentStatus.MAJOR_OUTAGE) || statuses.contains(ComponentStatus.PARTIAL_OUTAGE);
        boolean working = statuses.contains(ComponentStatus.OPERATIONAL) || statuses.contains(ComponentStatus.DEGRADED_PERFORMANCE);
        boolean slow = statuses.contains(ComponentStatus.DEGRADED_PERFORMANCE);
        boolean unknown = statuses.contains(ComponentStatus.UNKNOWN);
        if (down && !working) {
            return new Overall(Indicator.CRITICAL, "Major outage");
        }
        if (down) {
            return new Overall(Indicator.MAJOR, "Partial outage");
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
}
