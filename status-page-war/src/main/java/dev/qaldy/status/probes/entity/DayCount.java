package dev.qaldy.status.probes.entity;

/**
 * Probe counts of one component on one UTC day: the history behind the uptime bars.
 *
 * @param componentId the component's id
 * @param epochDay    the UTC day, as {@link java.time.LocalDate#toEpochDay()}
 * @param up          probes that found it up
 * @param down        probes that found it down
 * @param unknown     probes that could not tell (not counted in uptime)
 */
public record DayCount(String componentId, long epochDay, int up, int down, int unknown) {
}
