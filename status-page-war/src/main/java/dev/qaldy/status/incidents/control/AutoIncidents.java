package dev.qaldy.status.incidents.control;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.platform.StatusSettings;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.ProbeRound;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Applies {@link IncidentRules} to every component after each probe round, and deletes old resolved incidents. */
@ApplicationScoped
public class AutoIncidents {

    /** How often resolved incidents older than the history are deleted. */
    static final Duration PRUNE_EVERY = Duration.ofMinutes(10);

    @Inject
    Incidents incidents;

    @Inject
    StatusSettings settings;

    @Inject
    Logger log;

    private long lastPruneMs;

    void follow(@Observes ProbeRound round) {
        boolean severalCells = settings.cells().size() > 1;
        Map<String, Incident> latest = incidents.latestAutomatic();
        for (Component component : settings.components()) {
            ComponentState state = round.states().get(component.id());
            Incident incident = latest.get(component.id());
            switch (IncidentRules.decide(state, incident, round.atMs(), settings.incidentAfter(), settings.staleAfter())) {
                case OPEN -> {
                    Incident opened = incidents.openAutomatic(component.id(), state.sinceMs(),
                            IncidentRules.title(component, state, severalCells),
                            IncidentRules.openingMessage(component, state, settings.incidentAfter()), round.atMs());
                    log.log(Level.INFO, "status page: opened incident {0} \"{1}\"", new Object[] {opened.id(), opened.name()});
                }
                case RESOLVE -> {
                    incidents.resolveAutomatic(incident.id(),
                            IncidentRules.resolvingMessage(component, incident.createdMs(), state.sinceMs()),
                            state.sinceMs(), round.atMs());
                    log.log(Level.INFO, "status page: resolved incident {0} \"{1}\"", new Object[] {incident.id(), incident.name()});
                }
                case NONE -> {
                    // nothing to do
                }
            }
        }
        if (round.atMs() - lastPruneMs >= PRUNE_EVERY.toMillis()) {
            lastPruneMs = round.atMs();
            incidents.prune(round.atMs() - Duration.ofDays(settings.historyDays()).toMillis());
        }
    }
}
