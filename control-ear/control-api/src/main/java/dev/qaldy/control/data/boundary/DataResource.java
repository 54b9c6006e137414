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
import java.util.List;

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
        return RecordJson.created(record, uri.getAbsolutePathBuilder().path(Long.toString(record.id())).build(), record.changeSeq());
    }

    /** {@code ?limit=1..100} (default 20) {@code &after=<id>} {@code &order=oldest|newest} → {@code {records, nextAfter}}. */
    @GET
    public Response list(@PathParam("app") String app, @PathParam("collection") String collection,
            @QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("order") String order) {
        int size = RecordBounds.page(limit);
        List<DataRecord> page = records.list(me(), app, collection, size, RecordBounds.after(after),
                RecordBounds.newestFirst(order));
        return RecordJson.page(page, size, records.head());
    }

    @GET
    @Path("{id}")
    public Response read(@PathParam("app") String app, @PathParam("collection") String collection, @PathParam("id") String id) {
        DataRecord record = records.read(me(), app, collection, id);
        return RecordJson.ok(record, records.head());
    }

    /** Replaces the whole object → 200 the record. */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response replace(@PathParam("app") String app, @PathParam("collection") String collection,
            @PathParam("id") String id, InputStream body) {
        DataRecord record = records.replace(me(), app, collection, id, RecordJson.body(body));
        return RecordJson.ok(record, record.changeSeq());
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("app") String app, @PathParam("collection") String collection, @PathParam("id") String id) {
        return RecordJson.deleted(records.delete(me(), app, collection, id));
    }

    private DataCaller me() {
        return DataCaller.person(current.get().personId());
    }
}
