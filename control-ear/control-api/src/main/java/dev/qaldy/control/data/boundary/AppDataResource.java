package dev.qaldy.control.data.boundary;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.data.entity.DataCaller;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.RecordBounds;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.NotPermitted;
import dev.qaldy.control.platform.control.ServiceKeys;
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
import java.util.List;
import java.time.Clock;

/**
 * {@code /api/v1/internal/app-data/{app}/{collection}[/{id}]}: the data API for an app's own server
 * code, which the runtime host calls for {@code qaldy.data} in {@code server.js}, with its own
 * credential (runtime-to-control; any other → 401 or 403) and the {@link DataGrants data grant} the
 * gate or the control plane gave it with the request or job it serves: a grant missing, expired
 * or for another app → 403, so the runtime host reaches only the data of an app it was asked to
 * serve (issue 16).
 * Same shapes, bounds and transactions as {@code /api/v1/apps/{app}/data}; records it writes name
 * {@code server.js} as their author.
 */
@Path("internal/app-data/{app}/{collection}")
@ServiceCall(ServiceDirection.RUNTIME_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AppDataResource {

    @Inject
    Records records;

    @Inject
    ServiceKeys keys;

    @Inject
    Clock clock;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@HeaderParam(DataGrants.HEADER) String grant, @PathParam("app") String app,
            @PathParam("collection") String collection, InputStream body, @Context UriInfo uri) {
        DataRecord record = records.create(code(app, grant), app, collection, RecordJson.body(body));
        return RecordJson.created(record, uri.getAbsolutePathBuilder().path(Long.toString(record.id())).build(), record.changeSeq());
    }

    /** {@code ?limit=1..100} (default 20) {@code &after=<id>} {@code &order=oldest|newest} → {@code {records, nextAfter}}. */
    @GET
    public Response list(@HeaderParam(DataGrants.HEADER) String grant, @PathParam("app") String app,
            @PathParam("collection") String collection, @QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("order") String order) {
        int size = RecordBounds.page(limit);
        List<DataRecord> page = records.list(code(app, grant), app, collection, size, RecordBounds.after(after),
                RecordBounds.newestFirst(order));
        return RecordJson.page(page, size, records.head());
    }

    @GET
    @Path("{id}")
    public Response read(@HeaderParam(DataGrants.HEADER) String grant, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id) {
        DataRecord record = records.read(code(app, grant), app, collection, id);
        return RecordJson.ok(record, records.head());
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response replace(@HeaderParam(DataGrants.HEADER) String grant, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id, InputStream body) {
        DataRecord record = records.replace(code(app, grant), app, collection, id, RecordJson.body(body));
        return RecordJson.ok(record, record.changeSeq());
    }

    @DELETE
    @Path("{id}")
    public Response delete(@HeaderParam(DataGrants.HEADER) String grant, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id) {
        return RecordJson.deleted(records.delete(code(app, grant), app, collection, id));
    }

    /** @throws NotPermitted (403) unless {@code grant} is a grant for {@code app} still good */
    private DataCaller code(String app, String grant) {
        if (!keys.grants().map(grants -> grants.allows(app, grant, clock.instant())).orElse(false)) {
            throw new NotPermitted("this endpoint is for the server code of the app a request or job is for: a "
                    + DataGrants.HEADER + " for app " + app + " is required");
        }
        return DataCaller.appCode(app);
    }
}
