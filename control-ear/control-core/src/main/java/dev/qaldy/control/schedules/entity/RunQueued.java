package dev.qaldy.control.schedules.entity;

/**
 * Fired when a run was put in the queue; once the transaction commits the dispatcher picks it up.
 *
 * @param runId the run's id
 */
public record RunQueued(long runId) {
}
