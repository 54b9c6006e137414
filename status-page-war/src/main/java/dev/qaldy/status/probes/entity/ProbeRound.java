package dev.qaldy.status.probes.entity;

import java.util.Map;

/**
 * Fired (CDI event) after every probe round, once its results are stored.
 *
 * @param atMs   epoch ms when the round started: the time of every probe in it
 * @param states the current state of every component, by component id
 */
public record ProbeRound(long atMs, Map<String, ComponentState> states) {

    public ProbeRound {
        states = Map.copyOf(states);
    }
}
