package dev.qaldy.gate.sites;

import dev.qaldy.gate.access.FailureClass;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * The one bean that asks whether an app is public, with its own {@code @Timeout @Bulkhead} (the
 * {@code VisibilityClient/ask/…} keys). As for access, only a connection error, timeout or 5xx is a
 * control-plane failure; no circuit breaker (issue 14): {@link PublicSites} consults the gate's one view.
 */
@ApplicationScoped
public class VisibilityClient {

    @Inject
    ControlPlane control;

    @Inject
    CellSecrets secrets;

    /** Ms; the same value as {@code @Timeout}. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-timeout-ms", defaultValue = "1000")
    long timeoutMillis;

    private ControlVisibilityApi api;

    @PostConstruct
    void connect() {
        api = control.client(ControlVisibilityApi.class, timeoutMillis);
    }

    /** @throws ControlPlaneUnavailable when the control plane cannot be reached, times out, answers 5xx or a 4xx that is not its own */
    @Timeout(1000)
    @Bulkhead(32)
    public VisibilityAnswer ask(String app) throws ControlPlaneUnavailable {
        try (Response response = api.visibility(secrets.toControl(), app)) {
            ControlPlane.requireApiAnswer(response, "visibility");
            String body = response.hasEntity() ? response.readEntity(String.class) : "";
            return VisibilityAnswer.read(response.getStatus(), body, app);
        } catch (ProcessingException e) {
            if (FailureClass.of(e) != FailureClass.CONTROL_PLANE) {
                throw e; // not the network: a gate error, never a reason to use the copy
            }
            throw new ControlPlaneUnavailable("visibility call failed: " + e.getMessage(), e);
        }
    }
}
