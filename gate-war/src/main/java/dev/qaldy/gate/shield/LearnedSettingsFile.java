package dev.qaldy.gate.shield;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * The gate's copy on disk of the owners' shield settings it learned, so a gate restarted while the
 * control plane is down keeps applying them: {@code {"next":S,"settings":[…]}}, each entry in the
 * feed's shape. Written whole to a temporary file, forced to disk and moved over the old one.
 */
public final class LearnedSettingsFile {

    /** What was read: the feed's position and the settings. */
    public record Held(long next, List<OwnerSettings> settings) {
    }

    /** Largest file read, bytes. */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    private LearnedSettingsFile() {
    }

    /** Writes {@code settings} and the feed position {@code next} to {@code file}, atomically. */
    public static void write(Path file, long next, Collection<OwnerSettings> settings) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JsonArrayBuilder all = Json.createArrayBuilder();
        settings.forEach(s -> all.add(s.toJson()));
        byte[] bytes = Json.createObjectBuilder().add("next", next).add("settings", all).build().toString()
                .getBytes(StandardCharsets.UTF_8);
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            out.write(java.nio.ByteBuffer.wrap(bytes));
            out.force(true);
        }
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads what {@link #write} wrote; nothing (position 0) when the file does not exist or cannot
     * be read, which is reported to {@code problems}: the gate then starts from config's settings
     * and fetches everything again.
     */
    public static Held read(Path file, Consumer<String> problems) {
        if (!Files.exists(file)) {
            return new Held(0, List.of());
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                problems.accept(file + " is larger than " + MAX_BYTES + " bytes");
                return new Held(0, List.of());
            }
            JsonObject json;
            try (JsonReader reader = Json.createReader(new java.io.ByteArrayInputStream(bytes))) {
                json = reader.readObject();
            }
            List<OwnerSettings> out = new ArrayList<>();
            if (json.get("settings") instanceof jakarta.json.JsonArray array) {
                for (JsonValue entry : array) {
                    if (entry instanceof JsonObject object) {
                        OwnerSettings.read(object, problems).ifPresent(out::add);
                    }
                }
            }
            long next = json.get("next") instanceof JsonNumber n && n.isIntegral() && n.longValue() >= 0 ? n.longValue() : 0;
            return new Held(next, out);
        } catch (IOException | RuntimeException e) {
            problems.accept("cannot read " + file + ": " + e);
            return new Held(0, List.of());
        }
    }
}
