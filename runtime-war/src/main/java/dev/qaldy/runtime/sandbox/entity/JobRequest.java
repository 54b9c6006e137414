package dev.qaldy.runtime.sandbox.entity;

import java.util.Objects;

/**
 * One job run the control plane sends: what a job handler sees as {@code ctx}.
 *
 * @param runId   the run's id in the control plane
 * @param tick    the schedule's tick (ISO-8601), or when the webhook delivery arrived
 * @param actor   {@code scheduler}, {@code scheduler.catchup} or {@code webhook}
 * @param job     the job handler's name
 * @param payload a webhook's body, or null
 */
public record JobRequest(long runId, String tick, String actor, String job, String payload) {

    public JobRequest {
        Objects.requireNonNull(job, "job");
        tick = tick == null ? "" : tick;
        actor = actor == null ? "" : actor;
    }
}
