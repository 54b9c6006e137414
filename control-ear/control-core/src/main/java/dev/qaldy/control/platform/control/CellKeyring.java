package dev.qaldy.control.platform.control;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.CellSigningKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cell's signing key and published keys, read from the PEM files named by
 * {@code qaldy.keys.private} and {@code qaldy.keys.public} (one or more keys: several while the
 * cell's key is rotated) on first use and kept; a missing file, or a private key whose public half
 * is not published, fails that request (500, logged) and is tried again on the next one.
 */
@ApplicationScoped
public class CellKeyring {

    @Inject
    @ConfigProperty(name = "qaldy.keys.private", defaultValue = "var/keys/cell.key.pem")
    String privateKeyFile;

    @Inject
    @ConfigProperty(name = "qaldy.keys.public", defaultValue = "var/keys/cell.pub.pem")
    String publicKeyFile;

    private volatile CellSigningKey signingKey;
    private volatile CellPublicKeys publicKeys;

    /** The key that signs sessions, seals, cap states and live records, with its {@code kid}. */
    public CellSigningKey signingKey() {
        CellSigningKey key = signingKey;
        if (key == null) {
            key = CellKeys.readSigningKey(Path.of(privateKeyFile), publicKeys());
            signingKey = key;
        }
        return key;
    }

    /** The published keys that verify session tokens. */
    public CellPublicKeys publicKeys() {
        CellPublicKeys keys = publicKeys;
        if (keys == null) {
            keys = CellKeys.readPublicKeys(Path.of(publicKeyFile));
            publicKeys = keys;
        }
        return keys;
    }
}
