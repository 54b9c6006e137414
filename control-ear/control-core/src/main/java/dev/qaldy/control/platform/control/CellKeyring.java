package dev.qaldy.control.platform.control;

import dev.qaldy.contract.keys.CellKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cell's key pair, read from the PEM files named by {@code qaldy.keys.private} and
 * {@code qaldy.keys.public} on first use and kept; a missing file fails that request (500, logged)
 * and is tried again on the next one.
 */
@ApplicationScoped
public class CellKeyring {

    @Inject
    @ConfigProperty(name = "qaldy.keys.private", defaultValue = "var/keys/cell.key.pem")
    String privateKeyFile;

    @Inject
    @ConfigProperty(name = "qaldy.keys.public", defaultValue = "var/keys/cell.pub.pem")
    String publicKeyFile;

    private volatile ECPrivateKey privateKey;
    private volatile ECPublicKey publicKey;

    /** The private key that signs sessions and seals. */
    public ECPrivateKey privateKey() {
        ECPrivateKey key = privateKey;
        if (key == null) {
            key = CellKeys.readPrivateKey(Path.of(privateKeyFile));
            privateKey = key;
        }
        return key;
    }

    /** The public key that verifies session tokens. */
    public ECPublicKey publicKey() {
        ECPublicKey key = publicKey;
        if (key == null) {
            key = CellKeys.readPublicKey(Path.of(publicKeyFile));
            publicKey = key;
        }
        return key;
    }
}
