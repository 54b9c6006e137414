package dev.qaldy.control.data.boundary;

import dev.qaldy.contract.data.DataBookmarks;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.RecordBounds;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The data API's HTTP shapes, shared by the person's and the gate's resources. */
final class RecordJson {

    private RecordJson() {
    }

    /** A request body: at most a little over a record's bound is read (413 beyond). */
    static String body(InputStream in) {
        byte[] bytes;
        try {
            bytes = in == null ? new byte[0] : in.readNBytes(RecordBounds.MAX_RECORD_BYTES * 2 + 1);
        } catch (IOException e) {
            throw new InvalidInput("the body could not be read");
        }
        if (bytes.length > RecordBounds.MAX_RECORD_BYTES * 2) {
            throw new PayloadTooLarge("a record is at most " + RecordBounds.MAX_RECORD_BYTES + " bytes of JSON");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** {@code {id, collection, data, createdBy, createdAt, updatedAt}}. */
    static JsonObject of(DataRecord record) {
        JsonObject data;
        try (JsonReader reader = Json.createReader(new StringReader(record.body()))) {
            data = reader.readObject();
        }
        return Json.createObjectBuilder().add("id", record.id()).add("collection", record.collection()).add("data", data)
                .add("createdBy", record.createdBy()).add("createdAt", record.createdAt().toString())
                .add("updatedAt", record.updatedAt().toString()).build();
    }

    /** @param bookmark the feed position the answer reflects ({@link DataBookmarks#HEADER}, issue 18) */
    static Response ok(DataRecord record, long bookmark) {
        return marked(Response.ok(of(record).toString(), MediaType.APPLICATION_JSON), bookmark);
    }

    static Response created(DataRecord record, URI location, long bookmark) {
        return marked(Response.created(location).type(MediaType.APPLICATION_JSON).entity(of(record).toString()), bookmark);
    }

    /** 204 for a deletion, with its bookmark. */
    static Response deleted(long bookmark) {
        return marked(Response.noContent(), bookmark);
    }

    private static Response marked(Response.ResponseBuilder answer, long bookmark) {
        return answer.header(DataBookmarks.HEADER, bookmark).header(DataBookmarks.SOURCE, DataBookmarks.PRIMARY).build();
    }

    /** {@code {records: [...], nextAfter}}: pass nextAfter as {@code ?after=} for the next page; null on the last. */
    static Response page(List<DataRecord> records, int limit, long bookmark) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        records.forEach(r -> array.add(of(r)));
        var page = Json.createObjectBuilder().add("records", array);
        if (records.size() == limit) {
            page.add("nextAfter", records.get(records.size() - 1).id());
        } else {
            page.addNull("nextAfter");
        }
        return marked(Response.ok(page.build().toString(), MediaType.APPLICATION_JSON), bookmark);
    }
}
