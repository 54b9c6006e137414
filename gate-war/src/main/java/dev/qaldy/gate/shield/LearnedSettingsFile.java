package dev.qaldy.gate.shield;

import dev.qaldy.contract.files.KeptFile;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
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

/**
 * The gate's copy on disk of the owners' shield settings, so a gate restarted during an outage keeps
 * them: {@code {"next":S,"settings":[…],"complete":B}}, entries in the feed's shape, written
 * atomically ({@link KeptFile}). {@code complete} is false while the feed is read again after a
 * damaged copy, so a gate restarted meanwhile still counts the settings as unknown.
 */
public final class LearnedSettingsFile {

    public sealed interface Read {
    }

    public record Held(long next, List<OwnerSettings> settings, boolean complete) implements Read {
    }

    /** This gate never learned anything: config's settings apply. */
    public record Missing() implements Read {
    }

    /** The gate wrote every entry itself, so any it cannot read means damage: settings unknown until fetched again. */
    public record Corrupt(String why) implements Read {
    }

    /** Bytes. */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    private LearnedSettingsFile() {
    }

    public static void write(Path file, long next, Collection<OwnerSettings> settings, boolean complete) throws IOException {
        JsonArrayBuilder all = Json.createArrayBuilder();
        settings.forEach(s -> all.add(s.toJson()));
        KeptFile.write(file, Json.createObjectBuilder().add("next", next).add("settings", all).add("complete", complete).build()
                .toString().getBytes(StandardCharsets.UTF_8));
    }

    public static Read read(Path file) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) MAX_BYTES + 1);
        } catch (NoSuchFileException none) {
            return new Missing();
        } catch (IOException e) {
            return new Corrupt("cannot read it: " + e);
        }
        if (bytes.length > MAX_BYTES) {
            return new Corrupt("larger than " + MAX_BYTES + " bytes");
        }
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            JsonObject json = reader.readObject();
            if (!(json.get("settings") instanceof JsonArray array) || !(json.get("next") instanceof JsonNumber next)
                    || !next.isIntegral() || next.longValue() < 0) {
                return new Corrupt("no settings or no feed position");
            }
            List<OwnerSettings> out = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (JsonValue entry : array) {
                if (!(entry instanceof JsonObject object)) {
                    return new Corrupt("an entry that is not an object");
                }
                OwnerSettings.read(object, problems::add).ifPresent(out::add);
                if (!problems.isEmpty()) {
                    return new Corrupt(problems.get(0));
                }
            }
            JsonValue complete = json.get("complete");
            if (complete != null && complete != JsonValue.TRUE && complete != JsonValue.FALSE) {
                return new Corrupt("complete is not true or false");
            }
            return new Held(next.longValue(), out, complete != JsonValue.FALSE);
        } catch (RuntimeException e) {
            return new Corrupt("not the JSON this gate writes: " + e.getMessage());
        }
    }
}
