package dev.qaldy.control.apps.boundary;

import dev.qaldy.control.apps.entity.AppKind;
import dev.qaldy.control.apps.entity.AppView;
import dev.qaldy.control.builds.boundary.Builds;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.util.List;

/** {@code /api/v1/apps}: create, list, show, delete an app, choose its live version and its kind (app or public site). */
@Path("apps")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AppsResource {

    @Inject
    Apps apps;

    @Inject
    Builds builds;

    @Inject
    CurrentSession current;

    /**
     * {@code {name, kind?}} → 201 the app; {@code kind} is {@code "app"} (the default: sign-in) or
     * {@code "site"} (public); a name that is no DNS label or is reserved, or another kind → 400; taken → 409.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(InputStream body, @Context UriInfo uri) {
        JsonBody json = JsonBody.read(body);
        AppView app = apps.create(current.get(), json.text("name"), AppKind.parse(json.textOr("kind", "app")));
        return Response.created(uri.getAbsolutePathBuilder().path(app.name()).build()).entity(app).build();
    }

    /** The apps the caller owns and the ones shared with them. */
    @GET
    public List<AppView> list() {
        return apps.visibleTo(current.get());
    }

    @GET
    @Path("{app}")
    public AppView show(@PathParam("app") String app) {
        return apps.show(current.get(), app);
    }

    /** Deletes the app with its builds and shares (owner only) → 204. */
    @DELETE
    @Path("{app}")
    public Response delete(@PathParam("app") String app) {
        apps.delete(current.get(), app);
        return Response.noContent().build();
    }

    /**
     * {@code {"kind":"site"}} makes the app a public site (anyone may open it, no sign-in);
     * {@code {"kind":"app"}} puts it behind sign-in again (owner only) → 200 the app; another kind → 400.
     */
    @PUT
    @Path("{app}/kind")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppView kind(@PathParam("app") String app, InputStream body) {
        return apps.changeKind(current.get(), app, AppKind.parse(JsonBody.read(body).text("kind")));
    }

    /**
     * {@code {"promoteEveryBuild":true}}: every build that succeeds goes live by itself;
     * {@code false}: only the first one, later ones wait for {@code PUT …/live} (owner only) → 200 the app;
     * anything but a JSON boolean → 400.
     */
    @PUT
    @Path("{app}/promote-every-build")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppView promoteEveryBuild(@PathParam("app") String app, InputStream body) {
        return apps.promoteEveryBuild(current.get(), app, JsonBody.read(body).bool("promoteEveryBuild"));
    }

    /** {@code {version}} → makes a succeeded build live (owner only) → 200 the app. */
    @PUT
    @Path("{app}/live")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppView promote(@PathParam("app") String app, InputStream body) {
        builds.promote(current.get(), app, JsonBody.read(body).wholeNumber("version"));
        return apps.show(current.get(), app);
    }
}
