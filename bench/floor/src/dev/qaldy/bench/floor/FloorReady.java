package dev.qaldy.bench.floor;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready at once, with the field bin/qaldy waits for in a gate's readiness (it runs in the gate2 slot). */
@Readiness
@ApplicationScoped
public class FloorReady implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("floor").up().withData("signOutsLoaded", true).build();
    }
}
