package dev.qaldy.status.probes.control;

import dev.qaldy.status.platform.StatusSettings;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ProbeResult;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The current state of every watched component, in memory for the page and in the database for
 * a restart. Only the prober changes it.
 */
@ApplicationScoped
public class ComponentStates {

    @Inject
    ProbeStore store;

    @Inject
    StatusSettings settings;

    @Inject
    Clock clock;

    private final Map<String, ComponentState> states = new ConcurrentHashMap<>();
    private volatile long startedAtMs;

    @PostConstruct
    void load() {
        startedAtMs = clock.millis();
        Set<String> ids = settings.components().stream().map(Component::id).collect(Collectors.toSet());
        store.forgetStatesExcept(ids);
        states.putAll(store.loadStates());
    }

    /** A copy of every known state, by component id; components never probed are missing. */
    public Map<String, ComponentState> current() {
        return Map.copyOf(states);
    }

    /** Epoch ms when the status page started: "no data since" for components never probed. */
    public long startedAtMs() {
        return startedAtMs;
    }

    /** Applies one round's results taken at {@code atMs}; returns every new state, changed or not. */
    public List<ComponentState> apply(List<ProbeResult> results, long atMs) {
        List<ComponentState> next = advance(states, results, atMs, settings.staleAfter());
        next.forEach(state -> states.put(state.componentId(), state));
        return next;
    }

    /** The states after {@code results} at {@code atMs}, given the {@code current} ones (not changed). */
    public static List<ComponentState> advance(Map<String, ComponentState> current, List<ProbeResult> results,
            long atMs, Duration staleAfter) {
        Map<String, ComponentState> before = new HashMap<>(current);
        List<ComponentState> next = new ArrayList<>(results.size());
        for (ProbeResult result : results) {
            ComponentState previous = before.get(result.componentId());
            next.add(previous == null ? ComponentState.first(result, atMs) : previous.next(result, atMs, staleAfter));
        }
        return next;
    }
}
