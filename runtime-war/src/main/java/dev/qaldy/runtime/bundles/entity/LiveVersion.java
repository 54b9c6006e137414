package dev.qaldy.runtime.bundles.entity;

import java.util.Objects;

/**
 * The control plane's answer to "which version of this app is live": the version, the SHA-256 of
 * its bundle (lower-case hex) and the seal (a compact JWS) that vouches for both, and the account
 * (the owner's person id) whose spending cap the app's server code counts against;
 * {@link #NO_ACCOUNT} when the answer named none (a data-centre record does not keep it).
 */
public record LiveVersion(String app, long version, String sha256, String seal, long accountId) {

    /** No account named. */
    public static final long NO_ACCOUNT = -1;

    public LiveVersion {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(seal, "seal");
    }

    /** A live answer that names no account. */
    public LiveVersion(String app, long version, String sha256, String seal) {
        this(app, version, sha256, seal, NO_ACCOUNT);
    }

    public BundleKey key() {
        return new BundleKey(app, version);
    }
}
