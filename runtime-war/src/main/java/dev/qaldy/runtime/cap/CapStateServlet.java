package dev.qaldy.runtime.cap;

import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.cap.PushedCapState;
import dev.qaldy.contract.http.JsonAnswer;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ErrorPages;
import dev.qaldy.runtime.platform.ServiceRefusal;
import dev.qaldy.runtime.platform.ServingException;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * {@code POST /.qaldy/internal/cap-states}: the control plane pushes a changed cap state (a compact
 * JWS, at most {@link CapStates#MAX_LENGTH} characters) the moment an account's apps fall asleep or
 * wake, or its cap changes, so this host stops running an asleep account's server code as soon as
 * the gate stops serving it (issue 16 item 5). Only the control plane's credential for the runtime
 * host is taken (the gate never forwards {@code /.qaldy/} paths). The state is offered to the host's
 * keeper like a fetched one and answered as the gate answers it ({@link PushedCapState}).
 */
@WebServlet(name = "cap-states", urlPatterns = PushedCapState.PATH)
public class CapStateServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient CellCredentials credentials;
    @Inject
    transient RunCap cap;

    public CapStateServlet() {
    }

    /** As CDI wires it; for tests. */
    public CapStateServlet(CellCredentials credentials, RunCap cap) {
        this.credentials = credentials;
        this.cap = cap;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<CapKeeper> keeper;
        try {
            credentials.requireReady();
            if (!ServiceRefusal.admitted(credentials.check(request.getHeader(ServiceDirection.HEADER), ServiceDirection.CONTROL_TO_RUNTIME),
                    request, response, credentials, "a cap-state push")) {
                return;
            }
            keeper = cap.keeper();
        } catch (ServingException e) {
            ErrorPages.write(response, e, null, 30);
            return;
        }
        if (!"POST".equals(request.getMethod())) {
            response.setHeader("Allow", "POST");
            ErrorPages.write(response, 405, "method-not-allowed", "Method not allowed", "Cap states are pushed with POST.", null);
            return;
        }
        if (keeper.isEmpty()) {
            response.setHeader("Retry-After", "30");
            ErrorPages.write(response, 503, "unavailable", "Not ready", "The cell's public keys are not loaded yet.", null);
            return;
        }
        PushedCapState answer = PushedCapState.offer(keeper.get(), request.getInputStream(), "runtime host");
        if (answer.json() != null) {
            JsonAnswer.write(response, answer.status(), answer.json());
            return;
        }
        if (answer.refusal() != null) {
            response.setHeader(PushedCapState.REFUSAL_HEADER, answer.refusal());
        }
        ErrorPages.write(response, answer.status(), answer.type(), answer.title(), answer.detail(), null);
    }
}
