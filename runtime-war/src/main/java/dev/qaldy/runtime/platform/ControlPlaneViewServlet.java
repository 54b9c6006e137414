package dev.qaldy.runtime.platform;

import dev.qaldy.contract.health.ControlPlaneWitness;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.http.JsonAnswer;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /.qaldy/internal/control-plane}: this runtime host's view of the control plane, the
 * witness a gate asks while it cannot reach the API ({@link ControlPlaneWitness}; issue 19):
 * {@code 200 {"state":"UP|SUSPECT|FAILING","answeredMsAgo":N}}, N in ms, -1 when the control plane
 * never answered this host. Not stored by caches; any other method is 405.
 */
@WebServlet(name = "control-plane-view", urlPatterns = ControlPlaneWitness.PATH)
public class ControlPlaneViewServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient UpstreamHealth controlPlane;

    public ControlPlaneViewServlet() {
    }

    /** As CDI wires it; for tests. */
    public ControlPlaneViewServlet(UpstreamHealth controlPlane) {
        this.controlPlane = controlPlane;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"GET".equals(request.getMethod())) {
            response.setHeader("Allow", "GET");
            ErrorPages.write(response, 405, "method-not-allowed", "Method not allowed",
                    "The control plane's view is read with GET.", null);
            return;
        }
        JsonAnswer.write(response, 200, ControlPlaneWitness.answer(controlPlane));
    }
}
