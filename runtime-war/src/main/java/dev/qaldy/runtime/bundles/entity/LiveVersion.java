package dev.qaldy.runtime.bundles.entity;

import java.util.Objects;

/**
 * The control plane's answer to "which version of this app is live": the version, the SHA-256 of
 * its bundle (lower-case hex) and the seal (a compact JWS) that vouches for both, the account
 * (the owner's person id) whose spending cap the app's server code counts against
 * ({@link #NO_ACCOUNT} when the answer named none; a data-centre record does not keep it), and
 * {@code record}: the signed live record (app, version, SHA-256, live-clock sequence) the host
 * keeps in the data-centre cache, null when the answer carried none (a control plane from before
 * issue 16; nothing is then kept for outages).
 */
public record LiveVersion(String app, long version, String sha256, String seal, long accountId, String record) {

    /** No account named. */
    public static final long NO_ACCOUNT = -1;

    public LiveVersion {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(seal, "seal");
    }

    /** A live answer that names no account and carries no signed record. */
    public LiveVersion(String app, long version, String sha256, String seal) {
        this(app, version, sha256, seal, NO_ACCOUNT, null);
    }

    public BundleKey key() {
        return new BundleKey(app, version);
    }

    /** The same version, bundle and seal as {@code other}, whatever the record and account (a record is signed anew per answer). */
    public boolean sameCode(LiveVersion other) {
        return other != null && app.equals(other.app) && version == other.version && sha256.equals(other.sha256)
                && seal.equals(other.seal);
    }
}
