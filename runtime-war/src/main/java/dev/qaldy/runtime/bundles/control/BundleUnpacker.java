package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Unpacks a verified bundle zip into memory. The builder already refused unsafe archives; this
 * checks again (defence in depth), because a path that escapes here would escape everywhere.
 */
public final class BundleUnpacker {

    /** The builder's bounds: at most 2,000 entries and 50 MiB uncompressed. */
    static final int MAX_ENTRIES = 2000;
    static final long MAX_UNPACKED_BYTES = 50L * 1024 * 1024;
    static final String MANIFEST = "qaldy.json";
    static final String DEFAULT_HANDLER = "server.js";

    private BundleUnpacker() {
    }

    /** @throws BundleRefusedException when the zip is unreadable, unsafe or over a bound */
    public static Bundle unpack(BundleKey key, String sha256, byte[] zip, Instant now) {
        Map<String, BundleFile> files = new HashMap<>();
        long total = 0;
        int entries = 0;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                if (++entries > MAX_ENTRIES) {
                    throw new BundleRefusedException("bundle of " + key + ": more than " + MAX_ENTRIES + " entries");
                }
                String name = entry.getName();
                if (entry.isDirectory()) {
                    requireSafe(key, name.substring(0, name.length() - 1));
                    continue;
                }
                requireSafe(key, name);
                byte[] content = read(in, MAX_UNPACKED_BYTES - total, key);
                total += content.length;
                if (files.put(name, BundleFile.of(content)) != null) {
                    throw new BundleRefusedException("bundle of " + key + ": duplicate entry " + name);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new BundleRefusedException("bundle of " + key + ": not a readable zip: " + e.getMessage(), e);
        }
        if (entries == 0) {
            throw new BundleRefusedException("bundle of " + key + ": empty or not a zip");
        }
        return new Bundle(key, sha256, files, handlerPath(key, files), now);
    }

    /** A relative path of non-empty segments, none of them {@code .} or {@code ..}, no backslash, NUL or control character. */
    static void requireSafe(BundleKey key, String name) {
        boolean safe = !name.isEmpty() && !name.startsWith("/") && !name.endsWith("/");
        for (int i = 0; safe && i < name.length(); i++) {
            char c = name.charAt(i);
            safe = c >= 0x20 && c != 0x7f && c != '\\';
        }
        if (safe) {
            for (String segment : name.split("/", -1)) {
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    safe = false;
                    break;
                }
            }
        }
        if (!safe) {
            throw new BundleRefusedException("bundle of " + key + ": unsafe entry name " + name.replaceAll("\\p{Cntrl}", "?"));
        }
    }

    private static byte[] read(InputStream in, long room, BundleKey key) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            if (out.size() + (long) n > room) {
                throw new BundleRefusedException("bundle of " + key + ": more than " + MAX_UNPACKED_BYTES
                        + " bytes unpacked");
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** The manifest's {@code handler}, else {@code server.js} when present, else none. */
    private static String handlerPath(BundleKey key, Map<String, BundleFile> files) {
        BundleFile manifest = files.get(MANIFEST);
        if (manifest != null) {
            JsonObject json;
            try (JsonReader reader = Json.createReader(new StringReader(manifest.text()))) {
                json = reader.readObject();
            } catch (JsonException | IllegalStateException e) {
                throw new BundleRefusedException("bundle of " + key + ": unreadable " + MANIFEST + ": " + e.getMessage(), e);
            }
            JsonValue handler = json.get("handler");
            if (handler != null && handler.getValueType() != JsonValue.ValueType.NULL) {
                if (!(handler instanceof JsonString named)) {
                    throw new BundleRefusedException("bundle of " + key + ": the manifest's handler is not a string");
                }
                String path = named.getString();
                requireSafe(key, path);
                if (!files.containsKey(path)) {
                    throw new BundleRefusedException("bundle of " + key + ": the manifest names handler " + path
                            + ", which is not in the bundle");
                }
                return path;
            }
        }
        return files.containsKey(DEFAULT_HANDLER) ? DEFAULT_HANDLER : null;
    }
}
