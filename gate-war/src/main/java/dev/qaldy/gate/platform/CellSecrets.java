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
 * The gate's keys: the cell's public keys (session tokens) and one service credential per
 * direction (issue 16): it sends gate-to-control and gate-to-runtime, and accepts control-to-gate
 * and metrics-to-gate. The gate-to-control credential also keys its {@link DataGrants}. While any is
 * missing the gate is not ready; it reads again at most every {@link #RETRY} when asked.
 */
@ApplicationScoped
public class CellSecrets {

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

    /** Empty while they cannot be read. */
    public Optional<CellPublicKeys> publicKeys() {
        if (publicKeys == null) {
            retry();
        }
        return Optional.ofNullable(publicKeys);
    }

    /** @throws IllegalStateException while its file cannot be read (callers fail closed) */
    public String toControl() {
        return secret(ServiceDirection.GATE_TO_CONTROL);
    }

    /** @throws IllegalStateException while its file cannot be read (callers fail closed) */
    public String toRuntime() {
        return secret(ServiceDirection.GATE_TO_RUNTIME);
    }

    /** @throws IllegalStateException while the gate-to-control credential cannot be read */
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
     * Constant time; see {@link ServiceKeyring.Verdict}.
     *
     * @throws IllegalStateException while an accepted credential cannot be read (callers fail closed)
     */
    public ServiceKeyring.Verdict check(String presented, ServiceDirection accepted) {
        secret(accepted); // throws while it is not loaded
        return keyring.check(presented, Set.of(accepted));
    }

    /** For log lines. */
    public Optional<ServiceDirection> identify(String presented) {
        return keyring.identify(presented);
    }

    private String secret(ServiceDirection direction) {
        if (!keyring.complete()) {
            retry();
        }
        return keyring.secret(direction);
    }

    public boolean loaded() {
        if (publicKeys == null || !keyring.complete()) {
            retry();
        }
        return publicKeys != null && keyring.complete();
    }

    /** For the readiness check; empty when everything is loaded. */
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
