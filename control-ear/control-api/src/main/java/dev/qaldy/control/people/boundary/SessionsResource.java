package dev.qaldy.control.people.boundary;

import dev.qaldy.control.people.entity.SignedSession;
import dev.qaldy.control.platform.boundary.ClientAddress;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@code /api/v1/sessions}: sign in and sign out. */
@Path("sessions")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SessionsResource {

    @Inject
    Sessions sessions;

    @Inject
    CurrentSession current;

    /** Peers whose X-Forwarded-For names the client (the cell's gate); see {@link ClientAddress}. */
    @Inject
    @ConfigProperty(name = "qaldy.api.trusted-proxies", defaultValue = "127.0.0.1,::1,0:0:0:0:0:0:0:1")
    Set<String> trustedProxies;

    @Context
    HttpServletRequest request;

    /**
     * {@code {email, password}} → 201 {@code {token, expiresAt}}; wrong email or password → 401
     * (the same for both); too many recent failures for the email from this client (or from
     * everywhere) → 429 with {@code Retry-After}.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signIn(InputStream body) {
        JsonBody json = JsonBody.read(body);
        SignedSession session = sessions.signIn(json.text("email"), json.text("password"),
                ClientAddress.of(request, trustedProxies));
        return Response.status(Response.Status.CREATED).entity(session).build();
    }

    /** Signs the current session out → 204. */
    @DELETE
    @Path("current")
    @SignedIn
    public Response signOut() {
        sessions.signOut(current.get());
        return Response.noContent().build();
    }
}
