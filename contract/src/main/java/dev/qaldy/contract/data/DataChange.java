package dev.qaldy.contract.data;

import dev.qaldy.contract.apps.AppLabel;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One change of the control plane's data feed ({@value #PATH}, issue 18), as the control plane
 * writes it and a runtime host's replica reads it. Three kinds:
 * <ul>
 * <li>a record as it is now: {@code {"seq","app","collection","id","data":{…},"createdBy","createdAt","updatedAt"}}
 * (times in epoch ms);</li>
 * <li>a deleted record: {@code {"seq","app","collection","id","deleted":true}};</li>
 * <li>all of a deleted app's data: {@code {"seq","app","appDeleted":true}}.</li>
 * </ul>
 * {@code seq} is the change's sequence; for one record the higher one wins, and an app's deletion
 * drops every record of the app below it.
 *
 * @param body the record's JSON object as text; null unless {@link Kind#RECORD}
 */
public record DataChange(long seq, String app, Kind kind, String collection, long id, String body, String createdBy, long createdAt,
        long updatedAt) {

    /** {@code GET PATH?since=S&limit=L[&app=A]} → {@code {"changes":[…],"next":N,"more":B,"head":H}}. */
    public static final String PATH = "/api/v1/internal/data-changes";
    /** Collection names, as the data API has them. */
    public static final Pattern COLLECTION = Pattern.compile("[a-z0-9-]{1,40}");

    /** What a change says of its record or app. */
    public enum Kind {
        RECORD, DELETED, APP_DELETED
    }

    public static DataChange record(long seq, String app, String collection, long id, String body, String createdBy, long createdAt,
            long updatedAt) {
        return new DataChange(seq, app, Kind.RECORD, collection, id, body, createdBy, createdAt, updatedAt);
    }

    public static DataChange deleted(long seq, String app, String collection, long id) {
        return new DataChange(seq, app, Kind.DELETED, collection, id, null, null, 0, 0);
    }

    public static DataChange appDeleted(long seq, String app) {
        return new DataChange(seq, app, Kind.APP_DELETED, null, 0, null, null, 0, 0);
    }

    /** The feed's shape. */
    public JsonObject toJson() {
        JsonObjectBuilder json = Json.createObjectBuilder().add("seq", seq).add("app", app);
        if (kind == Kind.APP_DELETED) {
            return json.add("appDeleted", true).build();
        }
        json.add("collection", collection).add("id", id);
        if (kind == Kind.DELETED) {
            return json.add("deleted", true).build();
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            json.add("data", reader.readObject());
        }
        return json.add("createdBy", createdBy).add("createdAt", createdAt).add("updatedAt", updatedAt).build();
    }

    /** The feed's shape; empty (and {@code problem} told) when it is not one. */
    public static Optional<DataChange> read(JsonObject json, Consumer<String> problem) {
        String app = json.get("app") instanceof JsonString a ? a.getString() : null;
        if (!(json.get("seq") instanceof JsonNumber seq) || !seq.isIntegral() || seq.longValue() < 1 || !AppLabel.valid(app)) {
            problem.accept("a data change without a valid seq or app");
            return Optional.empty();
        }
        if (json.get("appDeleted") == JsonValue.TRUE) {
            return Optional.of(appDeleted(seq.longValue(), app));
        }
        String collection = json.get("collection") instanceof JsonString c ? c.getString() : null;
        if (collection == null || !COLLECTION.matcher(collection).matches() || !(json.get("id") instanceof JsonNumber id)
                || !id.isIntegral() || id.longValue() < 1) {
            problem.accept("data change " + seq + " of " + app + ": no valid collection or id");
            return Optional.empty();
        }
        if (json.get("deleted") == JsonValue.TRUE) {
            return Optional.of(deleted(seq.longValue(), app, collection, id.longValue()));
        }
        if (!(json.get("data") instanceof JsonObject data) || !(json.get("createdBy") instanceof JsonString by)
                || !(json.get("createdAt") instanceof JsonNumber created) || !(json.get("updatedAt") instanceof JsonNumber updated)) {
            problem.accept("data change " + seq + " of " + app + ": no data, author or times");
            return Optional.empty();
        }
        return Optional.of(record(seq.longValue(), app, collection, id.longValue(), data.toString(), by.getString(),
                created.longValue(), updated.longValue()));
    }
}
