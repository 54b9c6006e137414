package dev.qaldy.gate.shield;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.EnumMap;
import java.util.Map;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/** The shield's MicroProfile Metrics: refusals by reason, and how many buckets, daily counters and owners' settings it holds. */
@ApplicationScoped
public class ShieldMetrics {

    static final String BLOCKED = "qaldy_gate_shield_blocked";
    static final String BUCKETS = "qaldy_gate_shield_buckets";
    static final String DAILY_COUNTERS = "qaldy_gate_shield_daily_counters";
    static final String LEARNED_APPS = "qaldy_gate_shield_learned_apps";

    @Inject
    MetricRegistry registry;

    private final Map<ShieldReason, Counter> blocked = new EnumMap<>(ShieldReason.class);

    @PostConstruct
    void register() {
        Metadata metadata = Metadata.builder().withName(BLOCKED)
                .withDescription("Requests the shield refused, by reason: rate-limit, daily-limit, bot-rule, denied-ip, settings-unknown")
                .build();
        for (ShieldReason reason : ShieldReason.values()) {
            blocked.put(reason, registry.counter(metadata, new Tag("reason", reason.header())));
        }
    }

    /** Gauges for the rules' memory. */
    public void watch(ShieldRules rules) {
        registry.gauge(Metadata.builder().withName(BUCKETS)
                .withDescription("Token buckets the shield holds (per client and app, per app, per API client)").build(),
                rules, r -> r.buckets().size());
        registry.gauge(Metadata.builder().withName(DAILY_COUNTERS)
                .withDescription("Apps whose requests the shield counts for the daily limit").build(),
                rules, r -> r.days().size());
        registry.gauge(Metadata.builder().withName(LEARNED_APPS)
                .withDescription("Apps whose owner's shield settings the gate learned from the control plane").build(),
                rules, r -> r.settings().learnedCount());
    }

    /** Counts one refusal. */
    public void blocked(ShieldReason reason) {
        blocked.get(reason).inc();
    }
}
