package dev.qaldy.gate.platform;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.ServiceCredential;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
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
    private volatile ServiceCredential serviceToken;
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
        return credential().secret();
    }

    private ServiceCredential credential() {
        if (serviceToken == null) {
            retry();
        }
        ServiceCredential token = serviceToken;
        if (token == null) {
            throw new IllegalStateException("the service token is not loaded from " + serviceTokenFile);
        }
        return token;
    }

    /**
     * True when {@code presented} is the service token ({@link ServiceCredential#matches}: constant
     * time; false for null, blank or oversize).
     *
     * @throws IllegalStateException while the token file cannot be read (callers fail closed)
     */
    public boolean isServiceToken(String presented) {
        return credential().matches(presented);
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
                serviceToken = ServiceCredential.read(Path.of(serviceTokenFile));
                log.log(Level.INFO, "gate: service token loaded from {0}", serviceTokenFile);
            } catch (IllegalStateException e) {
                log.log(Level.WARNING, "gate: no service token yet: {0}", e.getMessage());
            }
        }
    }
}
