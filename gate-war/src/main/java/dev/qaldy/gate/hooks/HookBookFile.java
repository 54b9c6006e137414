package dev.qaldy.gate.hooks;

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
 * The gate's copy on disk of what it learned about hooks, so a gate restarted during an outage still
 * checks deliveries: {@code {"next":S,"hooks":[…]}}, entries in the feed's shape, written atomically
 * and readable by the gate's user only ({@link KeptFile#writeOwnerOnly}): it holds the hooks' secrets.
 */
final class HookBookFile {

    sealed interface Read {
    }

    record Held(long next, List<LearnedHook> hooks) implements Read {
    }

    record Missing() implements Read {
    }

    /** The gate wrote every entry itself: any it cannot read means damage; read the feed again from its start. */
    record Corrupt(String why) implements Read {
    }

    static final long MAX_BYTES = 64L * 1024 * 1024;

    private HookBookFile() {
    }

    static void write(Path file, long next, Collection<LearnedHook> hooks) throws IOException {
        JsonArrayBuilder all = Json.createArrayBuilder();
        hooks.forEach(h -> all.add(h.toJson()));
        KeptFile.writeOwnerOnly(file, Json.createObjectBuilder().add("next", next).add("hooks", all).build().toString()
                .getBytes(StandardCharsets.UTF_8));
    }

    static Read read(Path file) {
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
            if (!(json.get("hooks") instanceof JsonArray array) || !(json.get("next") instanceof JsonNumber next)
                    || !next.isIntegral() || next.longValue() < 0) {
                return new Corrupt("no hooks or no feed position");
            }
            List<LearnedHook> out = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (JsonValue entry : array) {
                if (!(entry instanceof JsonObject object)) {
                    return new Corrupt("an entry that is not an object");
                }
                LearnedHook.read(object, problems::add).ifPresent(out::add);
                if (!problems.isEmpty()) {
                    return new Corrupt(problems.get(0));
                }
            }
            return new Held(next.longValue(), out);
        } catch (RuntimeException e) {
            return new Corrupt("not the JSON this gate writes: " + e.getClass().getSimpleName());
        }
    }
}
