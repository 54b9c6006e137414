package dev.qaldy.gate.shield;

import io.github.bucket4j.TimeMeter;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The shield step of the gate's hot path, right after routing and before the session: rate
 * limits, bot rules and daily limits ({@link ShieldRules}), all in the gate's memory with no call
 * to the control plane (seed: rate limits, bot rules and daily limits live in the gate and do not
 * depend on the API). Config is read once at start; buckets run on {@code System.nanoTime}, days
 * on the injected {@link Clock} guarded by the same monotonic clock.
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

    private ShieldRules rules;

    /** Creates the bean when the application starts: a bad shield setting stops the deployment, not a request. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        log.log(Level.FINE, "gate: shield started");
    }

    @PostConstruct
    void start() {
        rules = new ShieldConfig(name -> config.getOptionalValue(name, String.class), log)
                .rules(config.getPropertyNames(), clock, TimeMeter.SYSTEM_NANOTIME);
        metrics.watch(rules);
        log.log(Level.INFO, "gate: shield ready, in memory and without the control plane: {0}", rules.summary());
    }

    /** Each app's settings: config's, joined by what the gate learned from the control plane. */
    public ShieldSettings settings() {
        return rules.settings();
    }

    /** The verdict on one request; a refusal is counted by reason and logged at FINE. */
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
