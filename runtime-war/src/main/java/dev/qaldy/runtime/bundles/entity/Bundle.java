package dev.qaldy.runtime.bundles.entity;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A verified, unpacked bundle: an immutable map from path (relative, {@code /}-separated, e.g.
 * {@code public/index.html}) to file, plus the handler script's path if the app has one.
 * Identity matters: caches keyed on a bundle object let it go when the bundle memory does.
 */
public final class Bundle {

    /** Bytes counted per file on top of its content (map entry, path, hash). */
    static final int OVERHEAD_PER_FILE = 256;

    private final BundleKey key;
    private final String sha256;
    private final Map<String, BundleFile> files;
    private final String handlerPath;
    private final Instant loadedAt;
    private final long weight;

    public Bundle(BundleKey key, String sha256, Map<String, BundleFile> files, String handlerPath, Instant loadedAt) {
        this.key = Objects.requireNonNull(key, "key");
        this.sha256 = Objects.requireNonNull(sha256, "sha256");
        this.files = Map.copyOf(files);
        this.handlerPath = handlerPath;
        this.loadedAt = Objects.requireNonNull(loadedAt, "loadedAt");
        if (handlerPath != null && !this.files.containsKey(handlerPath)) {
            throw new IllegalArgumentException("the handler " + handlerPath + " is not in the bundle");
        }
        long bytes = 0;
        for (Map.Entry<String, BundleFile> e : this.files.entrySet()) {
            bytes += e.getValue().size() + 2L * e.getKey().length() + OVERHEAD_PER_FILE;
        }
        this.weight = bytes;
    }

    public BundleKey key() {
        return key;
    }

    /** SHA-256 of the bundle zip as sealed by the control plane. */
    public String sha256() {
        return sha256;
    }

    public Optional<BundleFile> file(String path) {
        return Optional.ofNullable(files.get(path));
    }

    /** The path of the handler script ({@code server.js} unless the manifest names another). */
    public Optional<String> handlerPath() {
        return Optional.ofNullable(handlerPath);
    }

    public int fileCount() {
        return files.size();
    }

    /** When this host verified and unpacked it. */
    public Instant loadedAt() {
        return loadedAt;
    }

    /** Approximate bytes this bundle holds in memory. */
    public long weight() {
        return weight;
    }

    @Override
    public String toString() {
        return key + " (" + files.size() + " files, " + weight + " bytes)";
    }
}
