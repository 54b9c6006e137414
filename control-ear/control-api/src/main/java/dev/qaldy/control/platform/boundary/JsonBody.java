package dev.qaldy.control.platform.boundary;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request's JSON object, read within 64 KiB (413 beyond; 400 "not valid JSON" for anything that
 * is not a JSON object, never a stack trace), with typed accessors that answer 400 naming the field
 * when it is missing or of the wrong type. Resources take the body as an {@link InputStream} and
 * read it here, so no JSON provider of the server ever sees it.
 */
public record JsonBody(JsonObject json) {

    /** Largest JSON body, in bytes. */
    public static final int MAX_BYTES = 64 * 1024;
    /** Longest string field read, in characters. */
    static final int MAX_STRING = 4096;

    /**
     * Reads a request body.
     *
     * @throws PayloadTooLarge over 64 KiB
     * @throws InvalidInput    when empty, not JSON, or not a JSON object
     */
    public static JsonBody read(InputStream entity) {
        JsonBody body = readOptional(entity);
        if (body == null) {
            throw new InvalidInput("a JSON object body is required");
        }
        return body;
    }

    /**
     * Reads a request body whose fields are all optional.
     *
     * @return null for an empty body
     * @throws PayloadTooLarge over 64 KiB
     * @throws InvalidInput    when not JSON, or not a JSON object
     */
    public static JsonBody readOptional(InputStream entity) {
        byte[] bytes;
        try {
            bytes = entity == null ? new byte[0] : entity.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new InvalidInput("the body could not be read");
        }
        if (bytes.length > MAX_BYTES) {
            throw new PayloadTooLarge("JSON bodies are limited to " + MAX_BYTES + " bytes");
        }
        if (bytes.length == 0) {
            return null;
        }
        JsonValue value;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            value = reader.readValue();
        } catch (RuntimeException e) {
            throw new InvalidInput("the body is not valid JSON");
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidInput("the body must be a JSON object");
        }
        return new JsonBody(value.asJsonObject());
    }

    /** @throws InvalidInput unless {@code field} is a string of at most 4096 characters */
    public String text(String field) {
        JsonValue value = json.get(field);
        if (value == null || value.getValueType() != JsonValue.ValueType.STRING) {
            throw new InvalidInput("\"" + field + "\" is required and must be a string");
        }
        String text = ((JsonString) value).getString();
        if (text.length() > MAX_STRING) {
            throw new InvalidInput("\"" + field + "\" is longer than " + MAX_STRING + " characters");
        }
        return text;
    }

    /**
     * {@code field}'s text, or {@code fallback} when the field is absent or null.
     *
     * @throws InvalidInput when it is present but not a string of at most 4096 characters
     */
    public String textOr(String field, String fallback) {
        JsonValue value = json.get(field);
        return value == null || value.getValueType() == JsonValue.ValueType.NULL ? fallback : text(field);
    }

    /** @throws InvalidInput unless {@code field} is {@code true} or {@code false} */
    public boolean bool(String field) {
        JsonValue value = json.get(field);
        if (value != null && value.getValueType() == JsonValue.ValueType.TRUE) {
            return true;
        }
        if (value != null && value.getValueType() == JsonValue.ValueType.FALSE) {
            return false;
        }
        throw new InvalidInput("\"" + field + "\" is required and must be true or false");
    }

    /** @throws InvalidInput unless {@code field} is a whole number */
    public long wholeNumber(String field) {
        JsonValue value = json.get(field);
        if (value == null || value.getValueType() != JsonValue.ValueType.NUMBER || !((JsonNumber) value).isIntegral()) {
            throw new InvalidInput("\"" + field + "\" is required and must be a whole number");
        }
        try {
            return ((JsonNumber) value).longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidInput("\"" + field + "\" is out of range");
        }
    }
}
