package dev.qaldy.contract.seal;

import java.time.Instant;
import java.util.Objects;

/**
 * What the control plane vouches for when it builds a version: this app's version {@code version}
 * is exactly the bytes whose SHA-256 is {@code sha256} (lower-case hex, 64 characters).
 */
public record BundleSeal(String app, long version, String sha256, Instant createdAt) {

    public BundleSeal {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(createdAt, "createdAt");
        if (sha256 == null || !sha256.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("sha256 must be 64 lower-case hex characters");
        }
        if (version < 1) {
            throw new IllegalArgumentException("versions start at 1");
        }
    }
}
