package dev.qaldy.gate.platform;

import dev.qaldy.contract.keys.CellKeys;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cell's public key (verifies session tokens) and the service token (authenticates the gate
 * to the control plane and the runtime host). Read at start; while either is missing the gate
 * is not ready, and it tries again at most every {@link #RETRY} when asked.
 */
@ApplicationScoped
public class CellSecrets {

    /** How long to wait between two attempts to read missing files. */
    static final Duration RETRY = Duration.ofSeconds(5);

    @Inject
    @ConfigProperty(name = "qaldy.keys.public", defaultValue = "var/keys/cell.pub.pem")
    String publicKeyFile;

    @Inject
    @ConfigProperty(name = "qaldy.service-token-file", defaultValue = "var/keys/service-token")
    String serviceTokenFile;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    private volatile ECPublicKey publicKey;
    private volatile String serviceToken;
    private volatile Instant lastAttempt = Instant.EPOCH;

    @PostConstruct
    void load() {
        reload();
    }

    /** The cell's public key, or empty while it cannot be read. */
    public Optional<ECPublicKey> publicKey() {
        if (publicKey == null) {
            retry();
        }
        return Optional.ofNullable(publicKey);
    }

    /**
     * The service token.
     *
     * @throws IllegalStateException while the token file cannot be read (callers fail closed)
     */
    public String serviceToken() {
        if (serviceToken == null) {
            retry();
        }
        String token = serviceToken;
        if (token == null) {
            throw new IllegalStateException("the service token is not loaded from " + serviceTokenFile);
        }
        return token;
    }

    /**
     * True when {@code presented} is the service token, compared in constant time (both sides are
     * hashed first, so not even the length leaks). False for null or blank.
     *
     * @throws IllegalStateException while the token file cannot be read (callers fail closed)
     */
    public boolean isServiceToken(String presented) {
        String token = serviceToken();
        if (presented == null || presented.isBlank()) {
            return false;
        }
        return MessageDigest.isEqual(sha256(presented.trim()), sha256(token));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** True when both the public key and the service token are loaded. */
    public boolean loaded() {
        if (publicKey == null || serviceToken == null) {
            retry();
        }
        return publicKey != null && serviceToken != null;
    }

    /** Which of the two is missing, for the readiness check; empty when both are loaded. */
    public String missing() {
        StringBuilder missing = new StringBuilder();
        if (publicKey == null) {
            missing.append("public key (").append(publicKeyFile).append(") ");
        }
        if (serviceToken == null) {
            missing.append("service token (").append(serviceTokenFile).append(')');
        }
        return missing.toString().trim();
    }

    private void retry() {
        Instant now = clock.instant();
        if (Duration.between(lastAttempt, now).compareTo(RETRY) >= 0) {
            reload();
        }
    }

    private synchronized void reload() {
        lastAttempt = clock.instant();
        if (publicKey == null) {
            try {
                publicKey = CellKeys.readPublicKey(Path.of(publicKeyFile));
                log.log(Level.INFO, "gate: cell public key loaded from {0}", publicKeyFile);
            } catch (IllegalStateException e) {
                log.log(Level.WARNING, "gate: no cell public key yet: {0}", e.getMessage());
            }
        }
        if (serviceToken == null) {
            try {
                String token = Files.readString(Path.of(serviceTokenFile), StandardCharsets.UTF_8).trim();
                if (token.isEmpty()) {
                    log.log(Level.WARNING, "gate: the service token file {0} is empty", serviceTokenFile);
                } else {
                    serviceToken = token;
                    log.log(Level.INFO, "gate: service token loaded from {0}", serviceTokenFile);
                }
            } catch (IOException e) {
                log.log(Level.WARNING, "gate: cannot read the service token file {0}: {1}",
                        new Object[] {serviceTokenFile, e.toString()});
            }
        }
    }
}
