package dev.qaldy.control.data.boundary;

import dev.qaldy.control.data.entity.DataCaller;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.RecordBounds;
import dev.qaldy.control.platform.boundary.CurrentSession;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;

/**
 * {@code /api/v1/apps/{app}/data/{collection}}: an app's JSON collections for a signed-in person
 * who may open it (owner or viewer). Records are JSON objects of at most 16 KiB.
 */
@Path("apps/{app}/data/{collection}")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class DataResource {

    @Inject
    Records records;

    @Inject
    CurrentSession current;

    /** A JSON object → 201 {@code {id, collection, data, …}}. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("app") String app, @PathParam("collection") String collection, InputStream body,
            @Context UriInfo uri) {
        DataRecord record = records.create(me(), app, collection, RecordJson.body(body));
        return RecordJson.created(record, uri.getAbsolutePathBuilder().path(Long.toString(record.id())).build());
    }

    /** {@code ?limit=1..100} (default 20) {@code &after=<id>} {@code &order=oldest|newest} → {@code {records, nextAfter}}. */
    @GET
    public Response list(@PathParam("app") String app, @PathParam("collection") String collection,
            @QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("order") String order) {
        int size = RecordBounds.page(limit);
        return RecordJson.page(records.list(me(), app, collection, size, RecordBounds.after(after),
                RecordBounds.newestFirst(order)), size);
    }

    @GET
    @Path("{id}")
    public Response read(@PathParam("app") String app, @PathParam("collection") String collection, @PathParam("id") String id) {
        return RecordJson.ok(records.read(me(), app, collection, id));
    }

    /** Replaces the whole object → 200 the record. */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response replace(@PathParam("app") String app, @PathParam("collection") String collection,
            @PathParam("id") String id, InputStream body) {
        return RecordJson.ok(records.replace(me(), app, collection, id, RecordJson.body(body)));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("app") String app, @PathParam("collection") String collection, @PathParam("id") String id) {
        records.delete(me(), app, collection, id);
        return Response.noContent().build();
    }

    private DataCaller me() {
        return DataCaller.person(current.get().personId());
    }
}
