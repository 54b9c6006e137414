package dev.qaldy.status.probes.entity;

import java.time.Duration;
import java.util.Objects;

/**
 * The current state of one component: its health from the latest probe and since when it has
 * had that health without a break.
 *
 * @param componentId the component's id
 * @param health      health from the latest probe
 * @param reason      reason from the latest probe
 * @param sinceMs     epoch ms of the first probe of the current run of this health
 * @param lastProbeMs epoch ms of the latest probe
 * @param latencyMs   latency of the latest probe in ms, or {@code null}
 * @param detail      detail of the latest probe
 * @param starting    true while no probe has found it up since the status page began watching it: a new
 *                    cell's parts are starting, not down (no incident, no downtime counted)
 */
public record ComponentState(String componentId, Health health, Reason reason, long sinceMs, long lastProbeMs,
        Long latencyMs, String detail, boolean starting) {

    public ComponentState {
        Objects.requireNonNull(componentId, "componentId");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(reason, "reason");
        detail = detail == null ? "" : detail;
    }

    /** A state of a component that has been up since the status page began watching it. */
    public ComponentState(String componentId, Health health, Reason reason, long sinceMs, long lastProbeMs,
            Long latencyMs, String detail) {
        this(componentId, health, reason, sinceMs, lastProbeMs, latencyMs, detail, false);
    }

    /** The state after the first probe ever seen for a component, taken at {@code atMs}: starting unless up. */
    public static ComponentState first(ProbeResult result, long atMs) {
        return new ComponentState(result.componentId(), result.health(), result.reason(), atMs, atMs,
                result.latencyMs(), result.detail(), result.health() != Health.UP);
    }

    /**
     * The state after {@code result}, taken at {@code atMs}. "Since" carries over only when the
     * health is the same and the previous probe is not older than {@code staleAfter}: across a gap
     * in the status page's own data nobody knows what happened, so a new run starts. It stays
     * starting until a probe finds it up, and never starts again after that.
     */
    public ComponentState next(ProbeResult result, long atMs, Duration staleAfter) {
        boolean continues = result.health() == health && atMs - lastProbeMs <= staleAfter.toMillis();
        return new ComponentState(componentId, result.health(), result.reason(), continues ? sinceMs : atMs, atMs,
                result.latencyMs(), result.detail(), starting && result.health() != Health.UP);
    }

    /** True when it is down but has never been up since the status page began watching it. */
    public boolean startingDown() {
        return starting && health == Health.DOWN;
    }

    /** True when the latest probe is no older than {@code staleAfter} at {@code nowMs}. */
    public boolean fresh(long nowMs, Duration staleAfter) {
        return nowMs - lastProbeMs <= staleAfter.toMillis();
    }

    /** True when {@code other} has a different health or a different "since" than this one. */
    public boolean changedFrom(ComponentState other) {
        return other == null || other.health != health || other.sinceMs != sinceMs;
    }
}
