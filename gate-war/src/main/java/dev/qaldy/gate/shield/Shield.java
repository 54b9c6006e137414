package dev.qaldy.gate.shield;

import io.github.bucket4j.TimeMeter;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The shield step, after routing and before the session ({@link ShieldRules}), in the gate's memory
 * with no call to the control plane (seed: rate limits, bot rules and daily limits do not depend on
 * the API). Counters outlive a restart ({@link ShieldMemory}), written every
 * {@code qaldy.gate.shield.flush-interval} and at stop.
 */
@ApplicationScoped
public class Shield {

    @Inject
    Config config;

    @Inject
    Clock clock;

    @Inject
    ShieldMetrics metrics;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield.flush-interval", defaultValue = "PT1S")
    Duration flushInterval;

    @Inject
    @ConfigProperty(name = "qaldy.var", defaultValue = "var")
    String var;

    @Inject
    @ConfigProperty(name = "qaldy.gate.shield-dir")
    Optional<String> dir;

    private ShieldRules rules;
    private ShieldMemory memory;
    private ScheduledFuture<?> flushing;

    /** Creates the bean at start, so a bad setting stops the deployment, not a request. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (flushInterval.isNegative() || flushInterval.isZero()) {
            throw new IllegalStateException("qaldy.gate.shield.flush-interval must be positive: " + flushInterval);
        }
        flushing = scheduler.scheduleWithFixedDelay(this::flush, flushInterval.toMillis(), flushInterval.toMillis(), TimeUnit.MILLISECONDS);
        log.log(Level.INFO, "gate: shield: counters kept in {0}, written every {1} and at stop", new Object[] {memory.file(), flushInterval});
    }

    @PostConstruct
    void start() {
        rules = new ShieldConfig(name -> config.getOptionalValue(name, String.class), log)
                .rules(config.getPropertyNames(), clock, TimeMeter.SYSTEM_NANOTIME);
        memory = new ShieldMemory(directory(), rules.buckets(), rules.days(), clock, TimeMeter.SYSTEM_NANOTIME, log);
        memory.restore();
        metrics.watch(rules);
        log.log(Level.INFO, "gate: shield ready, in memory and without the control plane: {0}", rules.summary());
    }

    @PreDestroy
    void stop() {
        if (flushing != null) {
            flushing.cancel(false);
        }
        if (memory != null) {
            memory.flush(true);
        }
    }

    private void flush() {
        try {
            memory.flush(false);
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "gate: shield: writing the counters failed", e);
        }
    }

    /** {@code qaldy.gate.shield-dir}, else {@code ${qaldy.var}/gate-shield}: counters and learned settings. */
    public Path directory() {
        return ShieldMemory.directory(dir, var);
    }

    /** Before its owner's lower limits. */
    public Plan plan(String app) {
        return rules.planOf(app);
    }

    public ShieldSettings settings() {
        return rules.settings();
    }

    /** A refusal is counted by reason and logged at FINE. */
    public ShieldVerdict check(ShieldTarget target, ShieldRequest req) {
        ShieldVerdict verdict = rules.check(target, req);
        if (verdict instanceof ShieldVerdict.Block block) {
            metrics.blocked(block.reason());
            if (log.isLoggable(Level.FINE)) {
                log.log(Level.FINE, "gate: shield refused {0} {1} for {2} from {3}: {4}",
                        new Object[] {req.method(), req.path(), target, req.peer(), block.reason().header()});
            }
        }
        return verdict;
    }
}
