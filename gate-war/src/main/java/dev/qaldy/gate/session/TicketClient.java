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
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Redeems one-time sign-in tickets with the control plane. Bounded by
 * {@code qaldy.gate.redeem-timeout-ms}; no memory and no fallback: signing in needs the API.
 */
@ApplicationScoped
public class TicketClient {

    @Inject
    ControlPlane control;

    @Inject
    CellSecrets secrets;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.gate.redeem-timeout-ms", defaultValue = "3000")
    long timeoutMillis;

    private ControlTicketsApi api;

    @PostConstruct
    void connect() {
        api = control.client(ControlTicketsApi.class, timeoutMillis);
    }

    /**
     * @return the session for a valid ticket; empty when the control plane refuses the ticket
     * @throws ControlPlaneUnavailable when the control plane cannot be reached, answers 5xx or a 4xx that is not its own
     */
    @Timeout(3000)
    public Optional<RedeemedTicket> redeem(String ticket, String app) throws ControlPlaneUnavailable {
        String body = Json.createObjectBuilder().add("ticket", ticket).add("app", app).build().toString();
        try (Response response = api.redeem(secrets.toControl(), body)) {
            ControlPlane.requireApiAnswer(response, "ticket redeem");
            if (response.getStatus() == 401 || response.getStatus() == 403) {
                log.log(Level.WARNING, "gate: the control plane refused the gate''s service token on ticket redeem (HTTP {0})",
                        response.getStatus());
            }
            String entity = response.hasEntity() ? response.readEntity(String.class) : "";
            return RedeemedTicket.read(response.getStatus(), entity);
        } catch (ProcessingException e) {
            throw new ControlPlaneUnavailable("ticket redeem failed: " + e.getMessage(), e);
        }
    }
}
