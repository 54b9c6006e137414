package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cell's shared service secret (one line in {@code qaldy.service-token-file}), which the gate
 * and the runtime host present in {@code X-Qaldy-Service-Token}.
 */
@ApplicationScoped
public class ServiceToken {

    /** Shortest secret accepted, in characters: a shorter file is treated as missing. */
    static final int MIN_LENGTH = 16;

    @Inject
    @ConfigProperty(name = "qaldy.service-token-file", defaultValue = "var/keys/service-token")
    String file;

    @Inject
    Logger log;

    private volatile byte[] expectedDigest;
    private volatile String secret;

    /**
     * Whether {@code presented} is the cell's service token; compares SHA-256 digests in constant
     * time, so neither the content nor the length of the secret leaks through timing.
     */
    public boolean matches(String presented) {
        byte[] expected = expectedDigest();
        if (expected == null || presented == null || presented.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(expected, sha256(presented.trim()));
    }

    /**
     * The secret itself, for the control plane's own calls to the gates (sharing pushes).
     *
     * @return the secret, or an empty string when the file is missing or too short (the gate then refuses the call)
     */
    public String secret() {
        return expectedDigest() == null ? "" : secret;
    }

    private byte[] expectedDigest() {
        byte[] digest = expectedDigest;
        if (digest == null) {
            try {
                String secret = Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
                if (secret.length() < MIN_LENGTH) {
                    log.warning(() -> "service token file " + file + " holds fewer than " + MIN_LENGTH
                            + " characters: refusing every service call");
                    return null;
                }
                digest = sha256(secret);
                this.secret = secret;
                expectedDigest = digest;
            } catch (IOException e) {
                log.warning(() -> "cannot read the service token file " + file + ": " + e
                        + "; refusing every service call");
                return null;
            }
        }
        return digest;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
