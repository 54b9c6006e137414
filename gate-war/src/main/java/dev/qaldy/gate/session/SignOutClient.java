package dev.qaldy.gate.session;

import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Asks the control plane to sign a session token out ({@code POST /api/v1/internal/sessions/sign-out}),
 * which then tells every gate of the cell before it answers. Bounded by
 * {@code qaldy.gate.sign-out-timeout-ms} (default 3000 ms); no retry: the caller says when it failed.
 */
@ApplicationScoped
public class SignOutClient {

    @Inject
    ControlPlane control;

    @Inject
    CellSecrets secrets;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.gate.sign-out-timeout-ms", defaultValue = "3000")
    long timeoutMillis;

    private ControlSessionsApi api;

    @PostConstruct
    void connect() {
        api = control.client(ControlSessionsApi.class, timeoutMillis);
    }

    /**
     * Signs {@code token} out at the control plane and so at every gate.
     *
     * @throws ControlPlaneUnavailable when the control plane cannot be reached, times out, answers
     *                                 5xx or refuses the gate's service token
     */
    public void signOut(String token) throws ControlPlaneUnavailable {
        String body = Json.createObjectBuilder().add("token", token).build().toString();
        int status;
        try (Response response = api.signOut(secrets.toControl(), body)) {
            status = response.getStatus();
        } catch (ProcessingException | IllegalStateException e) {
            throw new ControlPlaneUnavailable("sign-out failed: " + e.getMessage(), e);
        }
        if (status == 204) {
            return;
        }
        if (status == 400) { // expired meanwhile: nothing left to sign out
            log.log(Level.FINE, "gate: the control plane found nothing to sign out");
            return;
        }
        if (status == 401 || status == 403) {
            log.log(Level.WARNING, "gate: the control plane refused the gate''s service token on sign-out (HTTP {0})", status);
        }
        throw new ControlPlaneUnavailable("sign-out answered HTTP " + status);
    }
}
