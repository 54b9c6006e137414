package dev.qaldy.gate.platform;

import dev.qaldy.contract.files.KeptFile;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The gate's copy on disk of what it learned from one of the control plane's internal feeds (shield
 * settings, hooks), so a gate restarted during an outage keeps it: {@code {"next":S,"<entries>":[…],
 * …extra}}, entries in the feed's shape, written atomically and readable by the gate's user only
 * ({@link KeptFile#writeOwnerOnly}), at most {@value #MAX_BYTES} bytes.
 */
public final class LearnedFile {

    /** What a read found. */
    public sealed interface Read<T> {
    }

    /** Every entry, the feed's position and the whole object (for fields a caller adds). */
    public record Held<T>(long next, List<T> entries, JsonObject whole) implements Read<T> {
    }

    /** Never written: this gate never learned anything from the feed. */
    public record Missing<T>() implements Read<T> {
    }

    /** The gate wrote every entry itself, so any it cannot read means damage: read the feed again from its start. */
    public record Corrupt<T>(String why) implements Read<T> {
    }

    /** Reads one entry in the feed's shape; a problem is told to {@code problems} (and the entry left out). */
    @FunctionalInterface
    public interface EntryReader<T> {
        Optional<T> read(JsonObject entry, Consumer<String> problems);
    }

    /** Bytes. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    private LearnedFile() {
    }

    /**
     * Writes {@code {"next":next,"<key>":[entries],…extra}} in place of the file.
     *
     * @param extra fields besides {@code next} and {@code key} (e.g. {@code complete}), or null
     */
    public static void write(Path file, long next, String key, Collection<? extends JsonValue> entries, JsonObject extra)
            throws IOException {
        JsonArrayBuilder all = Json.createArrayBuilder();
        entries.forEach(all::add);
        JsonObjectBuilder whole = Json.createObjectBuilder(extra == null ? JsonValue.EMPTY_JSON_OBJECT : extra)
                .add("next", next).add(key, all);
        KeptFile.writeOwnerOnly(file, whole.build().toString().getBytes(StandardCharsets.UTF_8));
    }

    /** What {@code file} holds under {@code key}; never throws. */
    public static <T> Read<T> read(Path file, String key, EntryReader<T> reader) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) MAX_BYTES + 1);
        } catch (NoSuchFileException none) {
            return new Missing<>();
        } catch (IOException e) {
            return new Corrupt<>("cannot read it: " + e);
        }
        if (bytes.length > MAX_BYTES) {
            return new Corrupt<>("larger than " + MAX_BYTES + " bytes");
        }
        try (JsonReader json = Json.createReader(new ByteArrayInputStream(bytes))) {
            JsonObject whole = json.readObject();
            if (!(whole.get(key) instanceof JsonArray array) || !(whole.get("next") instanceof JsonNumber next)
                    || !next.isIntegral() || next.longValue() < 0) {
                return new Corrupt<>("no " + key + " or no feed position");
            }
            List<T> out = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (JsonValue entry : array) {
                if (!(entry instanceof JsonObject object)) {
                    return new Corrupt<>("an entry that is not an object");
                }
                reader.read(object, problems::add).ifPresent(out::add);
                if (!problems.isEmpty()) {
                    return new Corrupt<>(problems.get(0));
                }
            }
            return new Held<>(next.longValue(), out, whole);
        } catch (RuntimeException e) {
            return new Corrupt<>("not the JSON this gate writes: " + e.getClass().getSimpleName());
        }
    }
}
