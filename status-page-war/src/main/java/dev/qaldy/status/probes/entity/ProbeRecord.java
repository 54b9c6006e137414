package dev.qaldy.status.probes.entity;

/**
 * One stored raw probe (kept for the last day).
 *
 * @param componentId the component's id
 * @param health      up, down or unknown
 * @param latencyMs   latency in ms, or {@code null}
 * @param atMs        epoch ms of the probe
 * @param detail      detail of the probe
 */
public record ProbeRecord(String componentId, Health health, Long latencyMs, long atMs, String detail) {
}
