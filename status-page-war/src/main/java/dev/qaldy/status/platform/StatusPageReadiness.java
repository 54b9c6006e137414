package dev.qaldy.status.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** The status page is ready when its own database answers; it depends on nothing in the cell. */
@Readiness
@ApplicationScoped
public class StatusPageReadiness implements HealthCheck {

    @Inject
    StatusDatabase database;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("status-page").status(database.ping()).build();
    }
}
