package dev.qaldy.control.data.entity;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The rules of the data API: collection names, record size and shape, page sizes. */
public final class RecordBounds {

    /** Collection names: 1 to 40 of a-z, 0-9 and '-'. */
    public static final Pattern COLLECTION = Pattern.compile("[a-z0-9-]{1,40}");
    /** Largest record: its JSON text, in UTF-8 bytes (16 KiB). */
    public static final int MAX_RECORD_BYTES = 16 * 1024;
    /** Largest page of a list. */
    public static final int MAX_PAGE = 100;
    public static final int DEFAULT_PAGE = 20;

    private RecordBounds() {
    }

    /** @throws InvalidInput unless {@code name} is 1 to 40 of a-z, 0-9 and '-' */
    public static String collection(String name) {
        if (name == null || !COLLECTION.matcher(name).matches()) {
            throw new InvalidInput("a collection name is 1 to 40 characters of lower-case letters a-z, digits 0-9 and '-'");
        }
        return name;
    }

    /**
     * Checks a record's JSON text and returns it in compact form.
     *
     * @throws PayloadTooLarge over 16 KiB
     * @throws InvalidInput    when it is not a JSON object
     */
    public static String record(String json) {
        if (json == null || json.isBlank()) {
            throw new InvalidInput("a record is a JSON object, e.g. {\"text\": \"hello\"}");
        }
        if (json.getBytes(StandardCharsets.UTF_8).length > MAX_RECORD_BYTES) {
            throw new PayloadTooLarge("a record is at most " + MAX_RECORD_BYTES + " bytes of JSON");
        }
        JsonValue value;
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            value = reader.readValue();
        } catch (RuntimeException e) {
            throw new InvalidInput("the record is not valid JSON");
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidInput("a record is a JSON object, e.g. {\"text\": \"hello\"}");
        }
        String compact = value.toString();
        if (compact.getBytes(StandardCharsets.UTF_8).length > MAX_RECORD_BYTES) {
            throw new PayloadTooLarge("a record is at most " + MAX_RECORD_BYTES + " bytes of JSON");
        }
        return compact;
    }

    /**
     * The page size asked for.
     *
     * @throws InvalidInput unless it is 1 to {@value #MAX_PAGE}
     */
    public static int page(String limit) {
        if (limit == null || limit.isEmpty()) {
            return DEFAULT_PAGE;
        }
        try {
            int size = Integer.parseInt(limit);
            if (size >= 1 && size <= MAX_PAGE) {
                return size;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new InvalidInput("limit must be a whole number from 1 to " + MAX_PAGE);
    }

    /** The id a list continues after, or null. @throws InvalidInput unless a whole number */
    public static Long after(String after) {
        if (after == null || after.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(after);
        } catch (NumberFormatException e) {
            throw new InvalidInput("The after parameter must be the id of the previous page's last record");
        }
    }

    /**
     * Whether a list is asked newest first: {@code order=newest}; {@code oldest} or nothing is oldest first.
     *
     * @throws InvalidInput for any other order
     */
    public static boolean newestFirst(String order) {
        if (order == null || order.isEmpty() || order.equals("oldest")) {
            return false;
        }
        if (order.equals("newest")) {
            return true;
        }
        throw new InvalidInput("order must be \"oldest\" (the default) or \"newest\"");
    }
}
