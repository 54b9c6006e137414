package dev.qaldy.runtime.data.boundary;

import dev.qaldy.runtime.data.control.DataReplica;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * How far the data replica is (issue 18), in {@code /health/ready}: {@code position} (the data feed's
 * position it holds) and {@code caughtUpAt} (when it last read the feed to its end, ISO-8601, or
 * {@code never}). Always up: a host whose replica is behind still serves, and its reads go to the
 * control plane while it answers.
 */
@Readiness
@ApplicationScoped
public class ReplicaHealth implements HealthCheck {

    @Inject
    DataReplica replica;

    @Override
    public HealthCheckResponse call() {
        DataReplica.Standing standing = replica.standing();
        return HealthCheckResponse.named("data-replica").up().withData("position", standing.position())
                .withData("caughtUpAt", standing.caughtUpAt() == null ? "never" : standing.caughtUpAt().toString()).build();
    }
}
