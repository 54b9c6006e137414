package dev.qaldy.control.platform.control;

import dev.qaldy.contract.data.DataGrants;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The control plane's service credentials (issue 16: one per direction): it accepts
 * {@code gate-to-control} and {@code runtime-to-control}, and sends {@code control-to-gate} and
 * {@code control-to-runtime}, each one line in a file of {@code qaldy.keys.dir}. It also makes
 * and checks the runtime host's {@link DataGrants}, keyed from the gate-to-control credential.
 * Files missing at start are looked for again when a call needs them; meanwhile every service
 * call is refused and every call it would send carries an empty credential (the callee refuses it).
 * Refused service calls are logged per client address and minute ({@link RefusalTally}).
 */
@ApplicationScoped
public class ServiceKeys {

    static final Set<ServiceDirection> HELD = EnumSet.of(ServiceDirection.GATE_TO_CONTROL, ServiceDirection.RUNTIME_TO_CONTROL,
            ServiceDirection.CONTROL_TO_GATE, ServiceDirection.CONTROL_TO_RUNTIME);

    @Inject
    @ConfigProperty(name = "qaldy.keys.dir", defaultValue = "var/keys")
    String dir;

    @Inject
    Logger log;

    @Inject
    Clock clock;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ServiceKeyring keyring;
    private RefusalTally refusals;
    private volatile DataGrants grants;

    /** For the container. */
    public ServiceKeys() {
    }

    /** For tests: the credentials in {@code dir}. */
    public ServiceKeys(Path dir, Logger log) {
        this.dir = dir.toString();
        this.log = log;
        this.clock = Clock.systemUTC();
        start();
    }

    @PostConstruct
    void start() {
        keyring = new ServiceKeyring(Path.of(dir), HELD);
        refusals = new RefusalTally("control", log, clock);
        refusals.sweepOn(scheduler);
        load();
    }

    @PreDestroy
    void stop() {
        refusals.close();
    }

    /**
     * Logs one refused service call from {@code address}, aggregated per address and minute;
     * {@code what} says what and why (e.g. "GET /internal/access without the service token").
     */
    public void refused(String what, String address) {
        refusals.refused(what, address);
    }

    /** The direction {@code presented} was made for, among those the control plane holds. */
    public Optional<ServiceDirection> identify(String presented) {
        load();
        return keyring.identify(presented);
    }

    /**
     * The secret to send in {@code direction} ({@code control-to-gate} or {@code control-to-runtime}).
     *
     * @return the secret, or an empty string while it cannot be read (the callee then refuses the call)
     */
    public String secret(ServiceDirection direction) {
        load();
        try {
            return keyring.secret(direction);
        } catch (IllegalStateException e) {
            return "";
        }
    }

    /** The runtime host's data grants, empty while the gate-to-control credential cannot be read. */
    public Optional<DataGrants> grants() {
        load();
        return Optional.ofNullable(grants);
    }

    private void load() {
        if (keyring.complete()) {
            return;
        }
        List<String> missing = keyring.reload();
        missing.forEach(problem -> log.warning(() -> problem + "; refusing the calls it is for"));
        if (grants == null) {
            try {
                grants = new DataGrants(keyring.credential(ServiceDirection.GATE_TO_CONTROL));
            } catch (IllegalStateException e) {
                // logged above; no grant is made or accepted meanwhile
            }
        }
    }
}
