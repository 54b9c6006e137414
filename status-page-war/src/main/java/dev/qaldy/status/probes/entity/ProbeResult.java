package dev.qaldy.status.probes.entity;

import java.util.Objects;

/**
 * What one probe found for one component.
 *
 * @param componentId the component's id, e.g. {@code local.control}
 * @param health      up, down or unknown
 * @param reason      why; chooses an incident's title
 * @param latencyMs   milliseconds from sending the request to the full answer; {@code null} when
 *                    nothing answered or the component was read from the control plane's answer
 * @param detail      one line for people, e.g. "no answer within 2 s"
 */
public record ProbeResult(String componentId, Health health, Reason reason, Long latencyMs, String detail) {

    /** Longest detail kept, in characters. */
    public static final int MAX_DETAIL = 500;

    public ProbeResult {
        Objects.requireNonNull(componentId, "componentId");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(reason, "reason");
        detail = detail == null ? "" : detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) : detail;
    }
}
