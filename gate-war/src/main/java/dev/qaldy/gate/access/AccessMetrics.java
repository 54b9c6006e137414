package dev.qaldy.gate.access;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * The access step's MicroProfile Metrics (application scope; Payara serves them at {@code /metrics}):
 * decisions by source, the latency of calls that reached the control plane, and the size of the
 * access memory. Whether the gate's view of the control plane says failing is
 * {@code qaldy_gate_control_plane_failing} ({@code ControlPlaneHealth}).
 */
@ApplicationScoped
public class AccessMetrics {

    static final String DECISIONS = "qaldy_gate_access_decisions";
    static final String API_CALLS = "qaldy_gate_access_api_calls";
    static final String MEMORY_ENTRIES = "qaldy_gate_access_memory_entries";

    @Inject
    MetricRegistry registry;

    private final Map<String, Counter> decisions = new ConcurrentHashMap<>();
    private Timer answered;
    private Timer failed;

    @PostConstruct
    void register() {
        Metadata decided = Metadata.builder().withName(DECISIONS)
                .withDescription("Access decisions by source: asked, fresh_copy, outage_copy (the copy kept for a "
                        + "control-plane failure), refused (403, 404 or 503)")
                .build();
        for (String source : new String[] {"asked", "fresh_copy", "outage_copy", "refused"}) {
            decisions.put(source, registry.counter(decided, new Tag("source", source)));
        }
        Metadata calls = Metadata.builder().withName(API_CALLS)
                .withDescription("Access questions that reached the control plane, by result (answered, failed)")
                .withUnit(MetricUnits.NANOSECONDS)
                .build();
        answered = registry.timer(calls, new Tag("result", "answered"));
        failed = registry.timer(calls, new Tag("result", "failed"));
    }

    /** Counts one decision under its {@link AccessDecision#metricSource() source}. */
    public void decided(AccessDecision decision) {
        Counter counter = decisions.get(decision.metricSource());
        if (counter != null) {
            counter.inc();
        }
    }

    /** Records one call that reached the control plane (not one the gate did not make, or the bulkhead refused). */
    public void called(Duration elapsed, boolean gotAnswer) {
        (gotAnswer ? answered : failed).update(elapsed);
    }

    /** Publishes the number of remembered answers. */
    public void watch(AccessMemory memory) {
        registry.gauge(Metadata.builder().withName(MEMORY_ENTRIES)
                .withDescription("Access answers the gate remembers (in memory only)")
                .build(), memory, AccessMemory::size);
    }
}
