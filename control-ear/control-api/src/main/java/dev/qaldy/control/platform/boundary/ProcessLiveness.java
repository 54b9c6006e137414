package dev.qaldy.control.platform.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Live as long as the application answers at all (MicroProfile Health {@code /health/live}). */
@Liveness
@ApplicationScoped
public class ProcessLiveness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("control");
    }
}
