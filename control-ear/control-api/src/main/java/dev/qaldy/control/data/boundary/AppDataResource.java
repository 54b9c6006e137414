package dev.qaldy.control.data.boundary;

import dev.qaldy.contract.data.AppDataKeys;
import dev.qaldy.control.data.entity.DataCaller;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.RecordBounds;
import dev.qaldy.control.platform.control.NotSignedIn;
import dev.qaldy.control.platform.control.ServiceToken;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;

/**
 * {@code /api/v1/internal/app-data/{app}/{collection}[/{id}]}: the data API for an app's own server
 * code, which the runtime host calls for {@code qaldy.data} in {@code server.js}. The only
 * credential is the app-scoped one ({@link AppDataKeys}, header {@code X-Qaldy-App-Key}) of the app
 * in the path: missing or another app's → 401, so one app's code never reaches another's data.
 * Same shapes, bounds and transactions as {@code /api/v1/apps/{app}/data}; records it writes name
 * {@code server.js} as their author.
 */
@Path("internal/app-data/{app}/{collection}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AppDataResource {

    @Inject
    Records records;

    @Inject
    ServiceToken serviceToken;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@HeaderParam(AppDataKeys.HEADER) String key, @PathParam("app") String app,
            @PathParam("collection") String collection, InputStream body, @Context UriInfo uri) {
        DataRecord record = records.create(code(app, key), app, collection, RecordJson.body(body));
        return RecordJson.created(record, uri.getAbsolutePathBuilder().path(Long.toString(record.id())).build());
    }

    /** {@code ?limit=1..100} (default 20) {@code &after=<id>} {@code &order=oldest|newest} → {@code {records, nextAfter}}. */
    @GET
    public Response list(@HeaderParam(AppDataKeys.HEADER) String key, @PathParam("app") String app,
            @PathParam("collection") String collection, @QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("order") String order) {
        int size = RecordBounds.page(limit);
        return RecordJson.page(records.list(code(app, key), app, collection, size, RecordBounds.after(after),
                RecordBounds.newestFirst(order)), size);
    }

    @GET
    @Path("{id}")
    public Response read(@HeaderParam(AppDataKeys.HEADER) String key, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id) {
        return RecordJson.ok(records.read(code(app, key), app, collection, id));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response replace(@HeaderParam(AppDataKeys.HEADER) String key, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id, InputStream body) {
        return RecordJson.ok(records.replace(code(app, key), app, collection, id, RecordJson.body(body)));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@HeaderParam(AppDataKeys.HEADER) String key, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id) {
        records.delete(code(app, key), app, collection, id);
        return Response.noContent().build();
    }

    /** @throws NotSignedIn (401) unless {@code key} is the credential of {@code app} */
    private DataCaller code(String app, String key) {
        if (!AppDataKeys.matches(serviceToken.secret(), app, key)) {
            throw new NotSignedIn("this endpoint is for an app's own server code: the app's " + AppDataKeys.HEADER
                    + " is required");
        }
        return DataCaller.appCode(app);
    }
}
