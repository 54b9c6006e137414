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
 * The one bean that asks the control plane whether an app is public, with its own
 * {@code @Timeout @Bulkhead} (tuned by the {@code VisibilityClient/ask/…} keys, which follow the
 * access client's {@code qaldy.gate.*} values). Like the access client, only a connection error, a
 * timeout or a 5xx counts as a control-plane failure; a 4xx is an answer. No circuit breaker of its
 * own (issue 14): {@link PublicSites} asks only while the gate's one view of the control plane says
 * it answers, and tells that view of every outcome.
 */
@ApplicationScoped
public class VisibilityClient {

    @Inject
    ControlPlane control;

    @Inject
    CellSecrets secrets;

    /** Connect and read timeout of the underlying client, ms; the same value as {@code @Timeout}. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-timeout-ms", defaultValue = "1000")
    long timeoutMillis;

    private ControlVisibilityApi api;

    @PostConstruct
    void connect() {
        api = control.client(ControlVisibilityApi.class, timeoutMillis);
    }

    /**
     * Asks whether anyone may open {@code app} without signing in.
     *
     * @throws ControlPlaneUnavailable when the control plane cannot be reached, times out, answers 5xx or a 4xx that is not its own
     */
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
