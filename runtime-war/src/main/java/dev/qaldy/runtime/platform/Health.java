package dev.qaldy.runtime.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/** MicroProfile Health checks, served by the server at {@code /health/ready} and {@code /health/live}. */
public final class Health {

    private Health() {
    }

    /** Ready once the service token and the cell's public key are loaded. */
    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {

        @Inject
        CellCredentials credentials;

        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.named("runtime-credentials").status(credentials.ready()).build();
        }
    }

    /** Alive while the application answers at all. */
    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {

        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.up("runtime");
        }
    }
}
