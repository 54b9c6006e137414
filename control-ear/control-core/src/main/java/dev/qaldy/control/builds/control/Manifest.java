package dev.qaldy.control.builds.control;

import dev.qaldy.control.apps.entity.AppName;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * An archive's {@code qaldy.json}: {@code {"name":"guestbook","kind":"app","handler":"server.js"}}
 * ({@code handler} optional).
 *
 * @param name    a DNS label naming the app the archive was made for
 * @param kind    {@code "app"}, or {@code "site"}: static files only (no handler, no {@code server.js}).
 *                Whether anyone may open it without signing in is the app's own setting, not the archive's
 * @param handler path of the server-side script inside the archive, or {@code null}
 */
public record Manifest(String name, String kind, String handler) {

    /** The manifest's file name at the archive root. */
    public static final String FILE = "qaldy.json";
    /** Largest manifest read, in bytes. */
    public static final int MAX_BYTES = 64 * 1024;
    private static final Set<String> KINDS = Set.of("app", "site");
    private static final String DEFAULT_HANDLER = "server.js";

    /**
     * Parses and checks a manifest.
     *
     * @param files the archive's file names, to check that the handler exists
     * @throws BundleRejected naming what is wrong
     */
    static Manifest parse(byte[] json, Set<String> files) throws BundleRejected {
        JsonObject object;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(json))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                throw new BundleRejected(FILE + " must be a JSON object");
            }
            object = value.asJsonObject();
        } catch (RuntimeException e) {
            throw new BundleRejected(FILE + " is not valid JSON");
        }
        String name = string(object, "name", true);
        if (!AppName.LABEL.matcher(name).matches()) {
            throw new BundleRejected("The \"name\" in " + FILE + " cannot be part of a web address. Use lower-case letters a-z, digits 0-9"
                    + " and '-', then upload again.");
        }
        String kind = string(object, "kind", true);
        if (!KINDS.contains(kind)) {
            throw new BundleRejected(FILE + ": \"kind\" must be \"app\" or \"site\"");
        }
        String handler = string(object, "handler", false);
        if ("site".equals(kind) && (handler != null || files.contains(DEFAULT_HANDLER))) {
            throw new BundleRejected(FILE + ": a \"site\" is static files only: no \"handler\" and no "
                    + DEFAULT_HANDLER);
        }
        if (handler != null && (!handler.endsWith(".js") || !files.contains(handler))) {
            throw new BundleRejected(FILE + ": \"handler\" must name a .js file in the archive; \""
                    + (handler.length() > 100 ? handler.substring(0, 100) + "…" : handler) + "\" is not one");
        }
        return new Manifest(name, kind, handler);
    }

    /**
     * The {@code "name"} an uploaded archive's {@code qaldy.json} declares, read before the build is
     * queued (issue 20: an archive made for another app is refused at upload, not built).
     *
     * @return empty when the archive is not a zip, has no readable manifest of at most {@link #MAX_BYTES}
     *         bytes, or no string {@code name}: the builder then fails the build naming the problem
     */
    public static Optional<String> declaredName(Path archive) {
        try (ZipFile zip = new ZipFile(archive.toFile(), StandardCharsets.UTF_8)) {
            ZipEntry entry = zip.getEntry(FILE);
            if (entry == null || entry.isDirectory()) {
                return Optional.empty();
            }
            byte[] json;
            try (InputStream in = zip.getInputStream(entry)) {
                json = in.readNBytes(MAX_BYTES + 1);
            }
            if (json.length > MAX_BYTES) {
                return Optional.empty();
            }
            try (JsonReader reader = Json.createReader(new ByteArrayInputStream(json))) {
                JsonValue value = reader.readValue();
                if (value.getValueType() != JsonValue.ValueType.OBJECT
                        || !(value.asJsonObject().get("name") instanceof JsonString name)) {
                    return Optional.empty();
                }
                return Optional.of(name.getString());
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String string(JsonObject object, String key, boolean required) throws BundleRejected {
        JsonValue value = object.get(key);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            if (required) {
                throw new BundleRejected(FILE + ": \"" + key + "\" is required");
            }
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new BundleRejected(FILE + ": \"" + key + "\" must be a string");
        }
        return ((JsonString) value).getString();
    }
}
