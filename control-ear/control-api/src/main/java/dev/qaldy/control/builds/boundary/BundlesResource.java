package dev.qaldy.control.builds.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.LiveBuild;
import dev.qaldy.control.platform.boundary.ServiceCall;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /api/v1/internal/apps/{app}}: the live version and bundle bytes, for the runtime host (service token). */
@Path("internal/apps/{app}")
@ServiceCall(ServiceDirection.RUNTIME_TO_CONTROL)
@RequestScoped
public class BundlesResource {

    /**
     * The live version of an app, with its sealed SHA-256, the account (owner's person id) its usage
     * is billed to, and {@code record}: the signed live record (app, version, SHA-256, live-clock
     * sequence) the runtime host keeps in the data-centre cache.
     */
    public record Live(String app, long version, String sha256, String seal, long accountId, String record) {
    }

    @Inject
    Builds builds;

    /**
     * → {@code {app, version, sha256, seal, accountId, record}}; no such app or nothing live → 404
     * whose problem body carries a signed {@code tombstone}.
     */
    @GET
    @Path("live")
    @Produces(MediaType.APPLICATION_JSON)
    public Live live(@PathParam("app") String app) {
        LiveBuild live = builds.live(app);
        Build build = live.build();
        return new Live(build.app().name(), build.version(), build.sha256(), build.seal(), build.app().owner().id(),
                live.record());
    }

    /** → the bundle zip, whose SHA-256 is the sealed one; gone → 404. */
    @GET
    @Path("versions/{version}/bundle")
    @Produces("application/zip")
    public Response bundle(@PathParam("app") String app, @PathParam("version") String version) {
        byte[] bytes = builds.bundle(app, BuildsResource.parseVersion(app, version));
        return Response.ok(bytes, "application/zip").header("Content-Length", bytes.length).build();
    }
}
