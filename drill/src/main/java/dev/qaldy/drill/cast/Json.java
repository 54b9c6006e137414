package dev.qaldy.drill.cast;

import dev.qaldy.drill.cell.DrillError;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;

/** Reads the API's JSON objects; {@link DrillError} naming {@code what} when the body is not one. */
public final class Json {

    private Json() {
    }

    public static JsonObject object(String body, String what) {
        try (JsonReader reader = jakarta.json.Json.createReader(new StringReader(body))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new DrillError(what + ": not a JSON object: " + body.substring(0, Math.min(200, body.length())), e);
        }
    }

    /** A JSON string literal for {@code text} (quotes and backslashes escaped). */
    public static String quote(String text) {
        return jakarta.json.Json.createValue(text).toString();
    }
}
