package dev.qaldy.runtime.platform;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.RefusalTally;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What the runtime host holds of the cell's keys (issue 16: least privilege; it runs tenants'
 * code): its own credential for the control plane ({@code runtime-to-control}), the ones it accepts
 * ({@code gate-to-runtime} from the gate, {@code control-to-runtime} for jobs), each a file of
 * {@code qaldy.keys.dir}, and the cell's public key (it checks bundle seals). Never the gate's
 * credential for the control plane, so it can make no data grant and name no person. While any is
 * missing the host is not ready and refuses requests. Refused service calls are logged per client
 * address and minute ({@link RefusalTally}).
 */
@ApplicationScoped
public class CellCredentials {

    /** How often a missing file is looked for again. */
    static final Duration RETRY = Duration.ofSeconds(5);
    static final Set<ServiceDirection> HELD = EnumSet.of(ServiceDirection.RUNTIME_TO_CONTROL,
            ServiceDirection.GATE_TO_RUNTIME, ServiceDirection.CONTROL_TO_RUNTIME);

    private ServiceKeyring keyring;
    private Path publicKeyFile;
    private Clock clock;
    private Logger log;

    private RefusalTally refusals;

    @Resource
    ManagedScheduledExecutorService scheduler;


    private volatile CellPublicKeys publicKeys;
    private volatile Instant lastAttempt = Instant.MIN;

    protected CellCredentials() {
    }

    @Inject
    public CellCredentials(@ConfigProperty(name = "qaldy.keys.dir") String keysDir,
            @ConfigProperty(name = "qaldy.keys.public") String publicKeyFile, Clock clock, Logger log) {
        this.keyring = new ServiceKeyring(Path.of(keysDir), HELD);
        this.publicKeyFile = Path.of(publicKeyFile);
        this.clock = clock;
        this.log = log;
        this.refusals = new RefusalTally("runtime", log, clock);
    }

    @PostConstruct
    void load() {
        tryLoad();
        refusals.sweepOn(scheduler);
    }

    @PreDestroy
    void stop() {
        refusals.close();
    }

    /**
     * Logs one refused service call from {@code address}, aggregated per address and minute;
     * {@code what} says what and why (e.g. "a job without the service token").
     */
    public void refused(String what, String address) {
        refusals.refused(what, address);
    }

    /** True once every credential and the public key are read. */
    public boolean ready() {
        return current();
    }

    /** @throws NotReadyException while a credential or the key is missing */
    public void requireReady() {
        if (!current()) {
            throw new NotReadyException();
        }
    }

    /**
     * How {@code presented} fares at an endpoint that accepts {@code accepted} (constant time;
     * {@code UNKNOWN} while ours is not loaded).
     */
    public ServiceKeyring.Verdict check(String presented, ServiceDirection accepted) {
        current();
        return keyring.check(presented, Set.of(accepted));
    }

    /** The credential to send to the control plane. */
    public String toControl() {
        requireReady();
        return keyring.secret(ServiceDirection.RUNTIME_TO_CONTROL);
    }

    /** The cell's published keys (several while its key is rotated), for seals, live records and cap states. */
    public CellPublicKeys publicKeys() {
        requireReady();
        return publicKeys;
    }

    private boolean current() {
        boolean loaded = publicKeys != null && keyring.complete();
        if (!loaded && !clock.instant().isBefore(lastAttempt.plus(RETRY))) {
            loaded = tryLoad();
        }
        return loaded;
    }

    private synchronized boolean tryLoad() {
        if (publicKeys != null && keyring.complete()) {
            return true;
        }
        lastAttempt = clock.instant();
        List<String> problems = keyring.reload();
        if (publicKeys == null) {
            try {
                publicKeys = CellKeys.readPublicKeys(publicKeyFile);
            } catch (IllegalStateException e) {
                problems = new ArrayList<>(problems);
                problems.add("cannot read the public key (" + publicKeyFile + "): " + e.getMessage());
            }
        }
        if (problems.isEmpty()) {
            log.log(Level.INFO, "Service credentials and the cell public key loaded ({0}, {1})",
                    new Object[] {keyring.file(ServiceDirection.RUNTIME_TO_CONTROL).getParent(), publicKeyFile});
            return true;
        }
        log.log(Level.WARNING, "Not ready: {0}", String.join("; ", problems));
        return false;
    }

    /** The host's own secrets are not loaded yet: it cannot serve anything. */
    public static class NotReadyException extends ServingException {

        private static final long serialVersionUID = 1L;

        NotReadyException() {
            super("a service credential or the cell public key is not loaded");
        }

        @Override
        public int status() {
            return 503;
        }

        @Override
        public String type() {
            return "not-ready";
        }

        @Override
        public String title() {
            return "Temporarily unavailable";
        }

        @Override
        public String detail() {
            return "This app is starting. Please try again in a moment.";
        }
    }
}
