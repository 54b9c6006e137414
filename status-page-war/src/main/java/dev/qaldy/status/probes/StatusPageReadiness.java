package dev.qaldy.status.probes;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** The status page is ready as soon as it is deployed: it depends on nothing in the cell. */
@Readiness
@ApplicationScoped
public class StatusPageReadiness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("status-page");
    }
}
