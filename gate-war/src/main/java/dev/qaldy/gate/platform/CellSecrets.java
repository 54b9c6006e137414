package dev.qaldy.gate.platform;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What the gate holds of the cell's keys: the cell's public key (verifies session tokens) and its
 * service credentials, one per direction (issue 16): it sends {@code gate-to-control} and
 * {@code gate-to-runtime}, and accepts {@code control-to-gate} (the control plane's pushes) and
 * {@code metrics-to-gate} ({@code /metrics}). With the gate-to-control credential it also makes the
 * {@link DataGrants data grants} it passes to the runtime host. Read at start; while any is
 * missing the gate is not ready, and it tries again at most every {@link #RETRY} when asked.
 */
@ApplicationScoped
public class CellSecrets {

    /** How long to wait between two attempts to read missing files. */
    static final Duration RETRY = Duration.ofSeconds(5);
    static final Set<ServiceDirection> HELD = EnumSet.of(ServiceDirection.GATE_TO_CONTROL, ServiceDirection.GATE_TO_RUNTIME,
            ServiceDirection.CONTROL_TO_GATE, ServiceDirection.METRICS_TO_GATE);

    @Inject
    @ConfigProperty(name = "qaldy.keys.public", defaultValue = "var/keys/cell.pub.pem")
    String publicKeyFile;

    @Inject
    @ConfigProperty(name = "qaldy.keys.dir", defaultValue = "var/keys")
    String keysDir;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    private volatile CellPublicKeys publicKeys;
    private ServiceKeyring keyring;
    private volatile DataGrants grants;
    private volatile Instant lastAttempt = Instant.EPOCH;

    @PostConstruct
    void load() {
        keyring = new ServiceKeyring(Path.of(keysDir), HELD);
        reload();
    }

    /** The cell's published keys (several while its key is rotated), or empty while they cannot be read. */
    public Optional<CellPublicKeys> publicKeys() {
        if (publicKeys == null) {
            retry();
        }
        return Optional.ofNullable(publicKeys);
    }

    /**
     * The secret to send to the control plane.
     *
     * @throws IllegalStateException while its file cannot be read (callers fail closed)
     */
    public String toControl() {
        return secret(ServiceDirection.GATE_TO_CONTROL);
    }

    /**
     * The secret to send to the runtime host.
     *
     * @throws IllegalStateException while its file cannot be read (callers fail closed)
     */
    public String toRuntime() {
        return secret(ServiceDirection.GATE_TO_RUNTIME);
    }

    /**
     * The data grant for {@code app} to pass to the runtime host with a request for it.
     *
     * @throws IllegalStateException while the gate-to-control credential cannot be read
     */
    public String dataGrant(String app) {
        DataGrants current = grants;
        if (current == null) {
            retry();
            current = grants;
            if (current == null) {
                throw new IllegalStateException("no data grants: the gate-to-control credential is not loaded");
            }
        }
        return current.current(app, clock.instant());
    }

    /**
     * How {@code presented} fares at an endpoint that accepts {@code accepted} (constant time; an
     * unknown or missing credential is {@code UNKNOWN}, one of the gate's own for another direction
     * {@code WRONG_DIRECTION}).
     *
     * @throws IllegalStateException while an accepted credential cannot be read (callers fail closed)
     */
    public ServiceKeyring.Verdict check(String presented, ServiceDirection accepted) {
        secret(accepted); // throws while it is not loaded
        return keyring.check(presented, Set.of(accepted));
    }

    /** The direction {@code presented} was made for, among the gate's own, for log lines. */
    public Optional<ServiceDirection> identify(String presented) {
        return keyring.identify(presented);
    }

    private String secret(ServiceDirection direction) {
        if (!keyring.complete()) {
            retry();
        }
        return keyring.secret(direction);
    }

    /** True when the public key and every service credential are loaded. */
    public boolean loaded() {
        if (publicKeys == null || !keyring.complete()) {
            retry();
        }
        return publicKeys != null && keyring.complete();
    }

    /** What is missing, for the readiness check; empty when everything is loaded. */
    public String missing() {
        StringBuilder missing = new StringBuilder();
        if (publicKeys == null) {
            missing.append("public key (").append(publicKeyFile).append(") ");
        }
        if (!keyring.complete()) {
            missing.append("service credentials (").append(keyring.missing()).append(')');
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
        if (publicKeys == null) {
            try {
                publicKeys = CellKeys.readPublicKeys(Path.of(publicKeyFile));
                log.log(Level.INFO, "gate: cell public keys loaded from {0} (kid {1})", new Object[] {publicKeyFile, publicKeys.kids()});
            } catch (IllegalStateException e) {
                log.log(Level.WARNING, "gate: no cell public key yet: {0}", e.getMessage());
            }
        }
        if (!keyring.complete()) {
            List<String> problems = keyring.reload();
            problems.forEach(problem -> log.log(Level.WARNING, "gate: {0}", problem));
            if (problems.isEmpty()) {
                log.log(Level.INFO, "gate: service credentials loaded from {0}", keysDir);
            }
        }
        if (grants == null) {
            try {
                grants = new DataGrants(keyring.credential(ServiceDirection.GATE_TO_CONTROL));
            } catch (IllegalStateException e) {
                // logged above; no grant is made meanwhile
            }
        }
    }
}
