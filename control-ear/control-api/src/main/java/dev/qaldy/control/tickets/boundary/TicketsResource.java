package dev.qaldy.control.tickets.boundary;

import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;

/** {@code /api/v1/tickets}: a one-time ticket that signs the caller in on an app's own origin. */
@Path("tickets")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TicketsResource {

    @Inject
    Tickets tickets;

    @Inject
    CurrentSession current;

    /** {@code {app, returnPath}} → 201 {@code {ticket, url}}; no such app → 404; bad path → 400. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response issue(InputStream body) {
        JsonBody json = JsonBody.read(body);
        Tickets.Issued issued = tickets.issue(current.get(), json.text("app"), json.text("returnPath"));
        return Response.status(Response.Status.CREATED).entity(issued).build();
    }
}
