package dev.qaldy.status.incidents.entity;

import java.util.Locale;
import java.util.Optional;

/** Where an incident stands, in the words public status pages use. */
public enum IncidentStatus {
    INVESTIGATING,
    IDENTIFIED,
    MONITORING,
    RESOLVED;

    /** The JSON word, e.g. {@code investigating}. */
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status a JSON word names, if any. */
    public static Optional<IncidentStatus> of(String word) {
        for (IncidentStatus status : values()) {
            if (status.json().equals(word)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
