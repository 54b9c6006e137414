package dev.qaldy.contract.keys;

import java.security.interfaces.ECPrivateKey;
import java.util.Objects;

/**
 * The control plane's P-256 signing key and its public half's {@code kid} ({@link CellPublicKeys#kid});
 * see {@link CellKeys#readSigningKey}.
 */
public record CellSigningKey(ECPrivateKey key, String kid) {

    public CellSigningKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kid, "kid");
    }
}
