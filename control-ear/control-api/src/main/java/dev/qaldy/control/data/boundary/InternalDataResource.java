package dev.qaldy.control.data.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.data.entity.DataCaller;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.RecordBounds;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.InvalidInput;
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

/**
 * {@code /api/v1/internal/data/{app}/{collection}}: the data API as the gate forwards it from an
 * app's origin ({@code /.qaldy/data/…}), with the service token and the person the gate verified
 * in {@code X-Qaldy-Person-Id}. The person's access is checked here again, like the public API.
 */
@Path("internal/data/{app}/{collection}")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class InternalDataResource {

    /** The header the gate names the signed-in person with. */
    public static final String PERSON_HEADER = "X-Qaldy-Person-Id";

    @Inject
    Records records;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@HeaderParam(PERSON_HEADER) String person, @PathParam("app") String app,
            @PathParam("collection") String collection, InputStream body, @Context UriInfo uri) {
        DataRecord record = records.create(caller(person), app, collection, RecordJson.body(body));
        return RecordJson.created(record, uri.getAbsolutePathBuilder().path(Long.toString(record.id())).build(), record.changeSeq());
    }

    @GET
    public Response list(@HeaderParam(PERSON_HEADER) String person, @PathParam("app") String app,
            @PathParam("collection") String collection, @QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("order") String order) {
        int size = RecordBounds.page(limit);
        List<DataRecord> page = records.list(caller(person), app, collection, size, RecordBounds.after(after),
                RecordBounds.newestFirst(order));
        return RecordJson.page(page, size, records.head());
    }

    @GET
    @Path("{id}")
    public Response read(@HeaderParam(PERSON_HEADER) String person, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id) {
        DataRecord record = records.read(caller(person), app, collection, id);
        return RecordJson.ok(record, records.head());
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response replace(@HeaderParam(PERSON_HEADER) String person, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id, InputStream body) {
        DataRecord record = records.replace(caller(person), app, collection, id, RecordJson.body(body));
        return RecordJson.ok(record, record.changeSeq());
    }

    @DELETE
    @Path("{id}")
    public Response delete(@HeaderParam(PERSON_HEADER) String person, @PathParam("app") String app,
            @PathParam("collection") String collection, @PathParam("id") String id) {
        return RecordJson.deleted(records.delete(caller(person), app, collection, id));
    }

    private static DataCaller caller(String header) {
        try {
            return DataCaller.person(Long.parseLong(header == null ? "" : header.trim()));
        } catch (NumberFormatException e) {
            throw new InvalidInput(PERSON_HEADER + " must name the signed-in person's id");
        }
    }
}
