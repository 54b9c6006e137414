package dev.qaldy.status.probes.control;

import dev.qaldy.status.platform.StatusSettings;
import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ProbeResult;
import dev.qaldy.status.probes.entity.ProbeRound;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Probes every component of every cell every {@code qaldy.status.probe-interval}, from outside
 * and in parallel: one round costs at most about the probe timeout, however many processes are
 * stopped or hung. After each round it stores the results and fires a {@link ProbeRound}.
 */
@ApplicationScoped
public class Prober {

    /** How often old probes and day counts are deleted. */
    static final Duration PRUNE_EVERY = Duration.ofMinutes(10);

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    StatusSettings settings;

    @Inject
    HealthProbe probe;

    @Inject
    ComponentStates states;

    @Inject
    ProbeStore store;

    @Inject
    Event<ProbeRound> rounds;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    private ScheduledFuture<?> schedule;
    private long lastPruneMs;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        long interval = settings.probeInterval().toMillis();
        schedule = scheduler.scheduleAtFixedRate(this::safeRound, 0, interval, TimeUnit.MILLISECONDS);
        log.log(Level.INFO, "status page: probing {0} components every {1} ms",
                new Object[] {settings.components().size(), interval});
    }

    @PreDestroy
    void stop() {
        if (schedule != null) {
            schedule.cancel(false);
        }
    }

    /** A round that never throws: an exception would end the schedule, and the page would go stale. */
    private void safeRound() {
        try {
            round();
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "status page: a probe round failed", e);
        }
    }

    /** Probes everything once, stores the results and fires {@link ProbeRound}. */
    public synchronized void round() {
        long atMs = clock.millis();
        Map<String, HttpOutcome> outcomes = probeAll();
        List<ProbeResult> results = new ArrayList<>();
        for (Cell cell : settings.cells()) {
            results.addAll(ReadinessReader.read(cell, outcomes));
        }
        Map<String, ComponentState> before = states.current();
        List<ComponentState> after = states.apply(results, atMs);
        logChanges(before, after);
        store.record(results, after, atMs);
        rounds.fire(new ProbeRound(atMs, states.current()));
        if (atMs - lastPruneMs >= PRUNE_EVERY.toMillis()) {
            lastPruneMs = atMs;
            long keepFromDay = ProbeStore.epochDay(atMs) - settings.historyDays() + 1;
            int deleted = store.prune(atMs - settings.rawProbesKept().toMillis(), keepFromDay);
            log.log(Level.FINE, "status page: deleted {0} old probe rows", deleted);
        }
    }

    private Map<String, HttpOutcome> probeAll() {
        Map<String, CompletableFuture<HttpOutcome>> pending = new LinkedHashMap<>();
        for (Cell cell : settings.cells()) {
            for (Component component : cell.probedDirectly()) {
                pending.put(component.id(), probe.probe(component.readinessUrl()));
            }
        }
        Duration timeout = settings.probeTimeout();
        long deadline = System.nanoTime() + timeout.plusSeconds(1).toNanos();
        Map<String, HttpOutcome> outcomes = new HashMap<>();
        for (Map.Entry<String, CompletableFuture<HttpOutcome>> entry : pending.entrySet()) {
            HttpOutcome outcome;
            try {
                outcome = entry.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                outcome = HttpOutcome.failed(HealthProbe.describe(e, timeout), timeout.toMillis());
            } catch (ExecutionException e) {
                outcome = HttpOutcome.failed(HealthProbe.describe(e, timeout), 0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outcome = HttpOutcome.failed("the probe was interrupted", 0);
            }
            outcomes.put(entry.getKey(), outcome);
        }
        return outcomes;
    }

    private void logChanges(Map<String, ComponentState> before, List<ComponentState> after) {
        Map<String, Component> components = settings.components().stream()
                .collect(Collectors.toMap(Component::id, Function.identity()));
        for (ComponentState state : after) {
            ComponentState previous = before.get(state.componentId());
            if (previous == null || previous.health() != state.health()) {
                Component component = components.get(state.componentId());
                log.log(Level.INFO, "status page: {0} in cell {1} is {2}: {3}", new Object[] {
                        component.name(), component.cell(), state.health(), state.detail()});
            }
        }
    }
}
