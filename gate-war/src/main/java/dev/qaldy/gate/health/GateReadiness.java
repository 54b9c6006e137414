package dev.qaldy.gate.health;

import dev.qaldy.gate.platform.CellSecrets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the gate can verify sessions and authenticate to the cell. It does not ask the
 * control plane: the gate serves people already signed in while the API is down.
 */
@Readiness
@ApplicationScoped
public class GateReadiness implements HealthCheck {

    @Inject
    CellSecrets secrets;

    @Override
    public HealthCheckResponse call() {
        if (secrets.loaded()) {
            return HealthCheckResponse.named("gate").up().build();
        }
        return HealthCheckResponse.named("gate").down().withData("missing", secrets.missing()).build();
    }
}
