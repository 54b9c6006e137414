package dev.qaldy.control.tickets.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.people.entity.SignedSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.ServiceCall;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;

/** {@code /api/v1/internal/tickets}: the gate redeems a ticket (service token). */
@Path("internal/tickets")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TicketRedemptionResource {

    @Inject
    Tickets tickets;

    /** {@code {ticket, app}} → 200 {@code {token, expiresAt}}; unknown, used, expired or other app → 404. */
    @POST
    @Path("redeem")
    @Consumes(MediaType.APPLICATION_JSON)
    public SignedSession redeem(InputStream body) {
        JsonBody json = JsonBody.read(body);
        return tickets.redeem(json.text("ticket"), json.text("app"));
    }
}
