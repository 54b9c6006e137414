package dev.qaldy.status.probes.entity;

import java.util.Locale;

/**
 * A component's (or a group's) status in the words of Atlassian Statuspage's summary, plus
 * {@code starting} and {@code unknown}. Declared from the best to the worst for people, so the
 * worst of several is the greatest.
 */
public enum ComponentStatus {
    /** Up, answering within {@code slowAfter}. */
    OPERATIONAL,
    /** Up, but its readiness answer took {@code slowAfter} or longer. */
    DEGRADED_PERFORMANCE,
    /** No fresh probe data, or it cannot be checked. */
    UNKNOWN,
    /** Not ready yet, and never ready since the status page began watching it: not an outage. */
    STARTING,
    /** Part of it is down: one of several gates, or what works without the part that is down. */
    PARTIAL_OUTAGE,
    /** Down. */
    MAJOR_OUTAGE;

    /** The JSON word, e.g. {@code major_outage}. */
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for the two outages. */
    public boolean outage() {
        return this == PARTIAL_OUTAGE || this == MAJOR_OUTAGE;
    }
}
