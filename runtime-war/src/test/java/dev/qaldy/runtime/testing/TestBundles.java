package dev.qaldy.runtime.testing;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.live.LiveStatement;
import dev.qaldy.contract.live.LiveStatements;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.runtime.bundles.control.BundleUnpacker;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Real bundle zips, real cell keys and real seals for tests. */
public final class TestBundles {

    public static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private TestBundles() {
    }

    /** A zip of the given text files, in path order. */
    public static byte[] zip(Map<String, String> files) {
        Map<String, byte[]> bytes = new TreeMap<>();
        files.forEach((path, text) -> bytes.put(path, text.getBytes(StandardCharsets.UTF_8)));
        return zipBytes(bytes);
    }

    public static byte[] zipBytes(Map<String, byte[]> files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> file : new TreeMap<>(files).entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The zip of a folder such as {@code examples/guestbook}, as the launcher uploads it. */
    public static byte[] zipFolder(Path folder) {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
                files.put(folder.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return zipBytes(files);
    }

    /**
     * The live answer the control plane would give for this zip, sealed with {@code keys}, with its
     * signed live record at live-clock sequence {@code version} (so a later version is a newer change).
     */
    public static LiveVersion live(String app, long version, byte[] zip, KeyPair keys) {
        return live(app, version, zip, keys, version);
    }

    /** As {@link #live(String, long, byte[], KeyPair)}, its record at live-clock {@code sequence} (a rollback: higher, older version). */
    public static LiveVersion live(String app, long version, byte[] zip, KeyPair keys, long sequence) {
        String sha = BundleFile.sha256Hex(zip);
        String seal = BundleSeals.sign(new BundleSeal(app, version, sha, NOW), CellKeys.signing(keys));
        String record = LiveStatements.sign(LiveStatement.live(app, version, sha, sequence, NOW), CellKeys.signing(keys));
        return new LiveVersion(app, version, sha, seal, LiveVersion.NO_ACCOUNT, record);
    }

    /** The control plane's signed tombstone for {@code app} at live-clock {@code sequence}. */
    public static String tombstone(String app, long sequence, KeyPair keys) {
        return LiveStatements.sign(LiveStatement.tombstone(app, sequence, NOW), CellKeys.signing(keys));
    }

    /** An unpacked bundle of these files (not verified: for tests of what comes after). */
    public static Bundle bundle(String app, long version, Map<String, String> files) {
        byte[] zip = zip(files);
        return BundleUnpacker.unpack(new BundleKey(app, version), BundleFile.sha256Hex(zip), zip, NOW);
    }

    /** A fresh cell key pair. */
    public static KeyPair keys() {
        return CellKeys.generate();
    }
}
