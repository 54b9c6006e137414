package dev.qaldy.gate.health;

import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.session.SignedOutSessions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the gate can verify sessions and authenticate to the cell. It does not ask the
 * control plane: the gate serves people already signed in while the API is down. Whether the
 * sign-outs made before the start are loaded is shown ({@code signOutsLoaded}) but does not make
 * the gate unready: a gate started while the API is down must still start (and answers sessions
 * with 503 until they are loaded, see {@link SignedOutSessions#loaded()}). How it sees the control
 * plane is shown too ({@code controlPlane}: {@code up}, {@code suspect} or {@code failing}; the
 * API through the gate is 503 at once until it turns up, at the next probe): {@code bin/qaldy}
 * returns from starting a cell or its control plane once every gate sees it.
 */
@Readiness
@ApplicationScoped
public class GateReadiness implements HealthCheck {

    @Inject
    CellSecrets secrets;

    @Inject
    SignedOutSessions signedOut;

    @Inject
    ControlPlaneHealth controlPlane;

    @Override
    public HealthCheckResponse call() {
        if (secrets.loaded()) {
            return HealthCheckResponse.named("gate").up().withData("signOutsLoaded", signedOut.loaded())
                    .withData("controlPlane", controlPlane.view().view().state().name().toLowerCase(Locale.ROOT)).build();
        }
        return HealthCheckResponse.named("gate").down().withData("missing", secrets.missing()).build();
    }
}
