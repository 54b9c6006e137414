package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * The one bean that asks the control plane about access, with {@code @Timeout @Bulkhead} (tuned by
 * the {@code AccessClient/ask/…} keys; interceptors do not fire on self-calls). The client's connect
 * and read timeouts equal {@code @Timeout}, so a silent API cannot hold a thread longer. No circuit
 * breaker (issue 14): whether to ask is {@code ControlPlaneHealth}'s call, made in {@link AccessCheck}.
 */
@ApplicationScoped
public class AccessClient {

    @Inject
    ControlPlane control;

    @Inject
    CellSecrets secrets;

    @Inject
    Logger log;

    /** Ms; the same value as {@code @Timeout}. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-timeout-ms", defaultValue = "1000")
    long timeoutMillis;

    private ControlAccessApi api;

    @PostConstruct
    void connect() {
        api = control.client(ControlAccessApi.class, timeoutMillis);
    }

    /** @throws ControlPlaneUnavailable when the control plane cannot be reached, times out, answers 5xx or a 4xx that is not its own */
    @Timeout(1000)
    @Bulkhead(32)
    public AccessAnswer ask(String app, long personId) throws ControlPlaneUnavailable {
        try (Response response = api.access(secrets.toControl(), app, personId)) {
            ControlPlane.requireApiAnswer(response, "access");
            if (response.getStatus() == 401 || response.getStatus() == 403) {
                log.log(Level.WARNING, "gate: the control plane refused the gate''s service token on access (HTTP {0})",
                        response.getStatus());
            }
            String body = response.hasEntity() ? response.readEntity(String.class) : "";
            return AccessAnswer.read(response.getStatus(), body, app, personId);
        } catch (ProcessingException e) {
            if (!FailureClass.causedByIo(e)) {
                throw e; // not the network: a gate error, never a reason to use the copy
            }
            throw new ControlPlaneUnavailable("access call failed: " + rootCause(e), e);
        }
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }
}
