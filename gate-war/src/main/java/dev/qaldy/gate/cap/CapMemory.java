package dev.qaldy.gate.cap;

import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapSync;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.GateConfig;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The gate's {@link CapKeeper} (over {@code qaldy.gate.cap-dir}) and its {@link CapSync} with the
 * control plane in the background, per {@code qaldy.cap.*}.
 */
@ApplicationScoped
public class CapMemory {

    static final int MAX_ACCOUNTS = 1_000_000;

    @Inject
    CellSecrets secrets;

    @Inject
    GateConfig config;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.cap.refresh", defaultValue = "PT15S")
    Duration refresh;

    @Inject
    @ConfigProperty(name = "qaldy.cap.report-interval", defaultValue = "PT10S")
    Duration reportInterval;

    @Inject
    @ConfigProperty(name = "qaldy.cap.flush-interval", defaultValue = "PT1S")
    Duration flushInterval;

    @Inject
    @ConfigProperty(name = "qaldy.cap.leeway", defaultValue = "PT2M")
    Duration leeway;

    @Inject
    @ConfigProperty(name = "qaldy.cap.fetch-timeout", defaultValue = "PT1S")
    Duration fetchTimeout;

    @Inject
    @ConfigProperty(name = "qaldy.cap.call-timeout", defaultValue = "PT5S")
    Duration callTimeout;

    @Inject
    @ConfigProperty(name = "qaldy.var", defaultValue = "var")
    String var;

    @Inject
    @ConfigProperty(name = "qaldy.gate.cap-dir")
    Optional<String> capDir;

    private volatile CapKeeper keeper;
    private volatile CapSync sync;
    private ScheduledFuture<?> ticking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        ready();
        long tick = Math.max(100, List.of(refresh, reportInterval, flushInterval).stream()
                .mapToLong(Duration::toMillis).min().orElse(1000));
        ticking = scheduler.scheduleWithFixedDelay(this::tick, 0, tick, TimeUnit.MILLISECONDS);
        log.log(Level.INFO, "gate: spending cap: states from {0} every {1}, usage reported every {2}, kept in {3}",
                new Object[] {config.controlUrl(), refresh, reportInterval, directory()});
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
        CapKeeper held = keeper;
        if (held != null) {
            held.flush();
            log.log(Level.INFO, "gate: spending cap: {0} accounts written to {1}", new Object[] {held.size(), directory()});
        }
    }

    /** Empty until the cell's public key is loaded. */
    synchronized Optional<CapSync> ready() {
        if (sync != null) {
            return Optional.of(sync);
        }
        Optional<CellPublicKeys> key = secrets.publicKeys();
        if (key.isEmpty()) {
            return Optional.empty();
        }
        CapKeeper created = new CapKeeper(key.get(), clock, leeway, directory(), log, MAX_ACCOUNTS);
        int read = created.load();
        log.log(Level.INFO, "gate: spending cap: read {0} accounts kept in {1}", new Object[] {read, directory()});
        keeper = created;
        sync = new CapSync(created, config.controlUrl(), secrets::toControl, "gate", callTimeout, fetchTimeout, clock, log,
                controlPlane.view());
        return Optional.of(sync);
    }

    Optional<CapKeeper> keeper() {
        return ready().map(s -> keeper);
    }

    private void tick() {
        try {
            ready().ifPresent(s -> s.tick(reportInterval, refresh));
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "gate: spending cap sync failed", e);
        }
    }

    Path directory() {
        return Path.of(capDir.filter(d -> !d.isBlank()).orElse(var + "/gate-cap"));
    }
}
