package dev.qaldy.control.people.boundary;

import dev.qaldy.control.people.entity.SignedSession;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;

/** {@code /api/v1/sessions}: sign in and sign out. */
@Path("sessions")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SessionsResource {

    @Inject
    Sessions sessions;

    @Inject
    CurrentSession current;

    /**
     * {@code {email, password}} → 201 {@code {token, expiresAt}}; wrong email or password → 401
     * (the same for both); too many recent failures → 429 with {@code Retry-After}.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signIn(InputStream body) {
        JsonBody json = JsonBody.read(body);
        SignedSession session = sessions.signIn(json.text("email"), json.text("password"));
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
