package dev.qaldy.control.builds.control;

import java.nio.file.Path;

/**
 * A normalized bundle written by {@link BundlePackager}.
 *
 * @param file              the bundle zip
 * @param sha256            lower-case hex SHA-256 of the file's bytes
 * @param files             number of files in it
 * @param uncompressedBytes their total size, in bytes
 * @param manifest          the archive's {@code qaldy.json}
 */
public record PackedBundle(Path file, String sha256, int files, long uncompressedBytes, Manifest manifest) {
}
