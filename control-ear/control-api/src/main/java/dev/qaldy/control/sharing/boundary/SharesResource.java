package dev.qaldy.control.sharing.boundary;

import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import dev.qaldy.control.sharing.entity.Share;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;

/** {@code /api/v1/apps/{app}/shares}: the app's viewers by email (owner only). */
@Path("apps/{app}/shares")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SharesResource {

    /** A viewer as the API shows it. */
    public record ShareView(String email, Instant createdAt) {

        static ShareView of(Share share) {
            return new ShareView(share.email(), share.createdAt());
        }
    }

    @Inject
    Shares shares;

    @Inject
    CurrentSession current;

    @GET
    public List<ShareView> list(@PathParam("app") String app) {
        return shares.list(current.get(), app).stream().map(ShareView::of).toList();
    }

    /** {@code {email}} → 201; already shared → 409. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response grant(@PathParam("app") String app, InputStream body) {
        Share share = shares.grant(current.get(), app, JsonBody.read(body).text("email"));
        return Response.status(Response.Status.CREATED).entity(ShareView.of(share)).build();
    }

    /** → 204; not shared with that email → 404. */
    @DELETE
    @Path("{email}")
    public Response revoke(@PathParam("app") String app, @PathParam("email") String email) {
        shares.revoke(current.get(), app, email);
        return Response.noContent().build();
    }
}
