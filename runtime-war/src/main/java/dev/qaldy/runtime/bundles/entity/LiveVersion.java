package dev.qaldy.runtime.bundles.entity;

import java.util.Objects;

/**
 * The control plane's answer to "which version of this app is live": the version, the SHA-256 of
 * its bundle (lower-case hex) and the seal (a compact JWS) that vouches for both.
 */
public record LiveVersion(String app, long version, String sha256, String seal) {

    public LiveVersion {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(seal, "seal");
    }

    public BundleKey key() {
        return new BundleKey(app, version);
    }
}
