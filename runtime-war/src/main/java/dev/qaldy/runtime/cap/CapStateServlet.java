package dev.qaldy.runtime.cap;

import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapKeeper.Offer;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ErrorPages;
import dev.qaldy.runtime.platform.ServiceRefusal;
import dev.qaldy.runtime.platform.ServingException;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code POST /.qaldy/internal/cap-states}: the control plane pushes a changed cap state (a compact
 * JWS, at most {@link CapStates#MAX_LENGTH} characters) the moment an account's apps fall asleep or
 * wake, or its cap changes, so this host stops running an asleep account's server code as soon as
 * the gate stops serving it (issue 16 item 5). Only the control plane's credential for the runtime
 * host is taken (the gate never forwards {@code /.qaldy/} paths). The state is offered to the host's
 * keeper like a fetched one: 200 {@code {"result":"accepted"|"already-held","sequence":N}}, or 409
 * problem {@code cap-state-refused} naming why (the last good state stays).
 */
@WebServlet(name = "cap-states", urlPatterns = "/.qaldy/internal/cap-states")
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
        byte[] body = request.getInputStream().readNBytes(CapStates.MAX_LENGTH + 1);
        if (body.length > CapStates.MAX_LENGTH) {
            ErrorPages.write(response, 400, "bad-request", "Bad request",
                    "A cap state is a compact JWS of at most " + CapStates.MAX_LENGTH + " characters.", null);
            return;
        }
        Offer offer = keeper.get().offer(new String(body, StandardCharsets.US_ASCII).trim());
        if (offer instanceof Offer.Accepted accepted) {
            json(response, "accepted", accepted.state().sequence());
        } else if (offer instanceof Offer.AlreadyHeld held) {
            json(response, "already-held", held.state().sequence());
        } else {
            Offer.Refused refused = (Offer.Refused) offer;
            response.setHeader("X-Qaldy-Cap-Refusal", refused.reason().slug());
            ErrorPages.write(response, 409, "cap-state-refused", "Cap state refused",
                    "The runtime host refused this cap state (" + refused.reason().slug() + ") and keeps the one it holds.", null);
        }
    }

    private static void json(HttpServletResponse response, String result, long sequence) throws IOException {
        byte[] body = Json.createObjectBuilder().add("result", result).add("sequence", sequence).build().toString()
                .getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(body.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(body);
        }
    }
}
