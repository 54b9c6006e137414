package dev.qaldy.control.builds.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.builds.control.JobExports;
import dev.qaldy.control.builds.control.UploadSpool;
import dev.qaldy.control.builds.control.UploadSpool.Spooled;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.BuildStatus;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.SignedIn;
import dev.qaldy.control.platform.control.NotFound;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;

/** {@code /api/v1/apps/{app}/builds}: upload a source archive, read builds and their logs (owner only). */
@Path("apps/{app}/builds")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class BuildsResource {

    /**
     * A build as the API shows it; {@code sha256} and {@code finishedAt} are null until it is done;
     * {@code jobs} are the job names its server.js registers (what a schedule or hook may name, as the
     * console's forms offer them), null until it succeeded or when the builder could not read them.
     */
    public record BuildView(long version, String status, String sha256, List<String> log, Instant createdAt,
            Instant finishedAt, List<String> jobs) {

        static BuildView of(Build build) {
            JobExports exports = JobExports.fromStored(build.jobs());
            List<String> jobs = build.status() == BuildStatus.SUCCEEDED && exports.complete() ? List.copyOf(exports.names()) : null;
            return new BuildView(build.version(), build.status().label(), build.sha256(), build.logLines(),
                    build.createdAt(), build.finishedAt(), jobs);
        }
    }

    /** The answer to an upload. */
    public record Queued(long version, String status) {
    }

    @Inject
    Builds builds;

    @Inject
    UploadSpool spool;

    @Inject
    CurrentSession current;

    /**
     * The request body is the zip: streamed to disk, refused with 413 by its declared length
     * before reading, or as soon as more than the limit arrived → 202 {@code {version, status}}; a
     * {@code qaldy.json} naming another app → 400 problem saying what to change.
     */
    @POST
    @Consumes({"application/zip", MediaType.APPLICATION_OCTET_STREAM})
    public Response upload(@PathParam("app") String app, @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength,
            InputStream body, @Context UriInfo uri) {
        Session me = current.get();
        builds.checkUploader(me, app);
        spool.checkDeclaredLength(contentLength);
        Spooled upload = spool.spool(body);
        Build build;
        try {
            build = builds.queue(me, app, upload);
        } catch (RuntimeException e) {
            spool.discard(upload.file());
            throw e;
        }
        return Response.accepted(new Queued(build.version(), build.status().label()))
                .location(uri.getAbsolutePathBuilder().path(Long.toString(build.version())).build()).build();
    }

    /** All builds, newest first. */
    @GET
    public List<BuildView> list(@PathParam("app") String app) {
        return builds.list(current.get(), app).stream().map(BuildView::of).toList();
    }

    @GET
    @Path("{version}")
    public BuildView show(@PathParam("app") String app, @PathParam("version") String version) {
        return BuildView.of(builds.show(current.get(), app, parseVersion(app, version)));
    }

    static long parseVersion(String app, String version) {
        try {
            return Long.parseLong(version);
        } catch (NumberFormatException e) {
            throw new NotFound("app " + app + " has no version like that");
        }
    }
}
