package dev.qaldy.contract.keys;

import java.security.interfaces.ECPrivateKey;
import java.util.Objects;

/**
 * The control plane's signing key and the {@code kid} under which the cell publishes its public
 * half ({@link CellPublicKeys#kid}); read by {@link CellKeys#readSigningKey}, which refuses a private
 * key whose public half is not published.
 *
 * @param key the P-256 private key
 * @param kid its public half's RFC 7638 thumbprint
 */
public record CellSigningKey(ECPrivateKey key, String kid) {

    public CellSigningKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kid, "kid");
    }
}
