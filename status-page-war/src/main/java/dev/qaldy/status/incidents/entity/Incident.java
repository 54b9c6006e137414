package dev.qaldy.status.incidents.entity;

import java.util.List;

/**
 * An incident: something people should know is wrong, with its messages newest first.
 *
 * @param id             its number
 * @param name           its title, e.g. "Control plane unreachable"
 * @param status         where it stands
 * @param origin         opened automatically or by an operator
 * @param componentId    the component it is about (automatic ones), or {@code null}
 * @param episodeSinceMs for automatic ones: epoch ms of the first failing probe of the down run it is about
 * @param createdMs      epoch ms when it started (automatic ones: the first failing probe)
 * @param updatedMs      epoch ms of its latest change
 * @param resolvedMs     epoch ms when it ended (automatic ones: the first probe that found it up), or {@code null}
 * @param updates        its messages, newest first
 */
public record Incident(long id, String name, IncidentStatus status, Origin origin, String componentId,
        Long episodeSinceMs, long createdMs, long updatedMs, Long resolvedMs, List<IncidentUpdate> updates) {

    /** Longest title, in characters. */
    public static final int MAX_NAME = 200;
    /** Longest message, in characters. */
    public static final int MAX_BODY = 5000;

    public Incident {
        updates = List.copyOf(updates);
    }

    /** True until it is resolved. */
    public boolean open() {
        return resolvedMs == null;
    }

    /**
     * A title trimmed and checked: 1 to {@value #MAX_NAME} characters.
     *
     * @throws IllegalArgumentException saying what is wrong, in words for the operator
     */
    public static String checkName(String name) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("Give the incident a title.");
        }
        if (trimmed.length() > MAX_NAME) {
            throw new IllegalArgumentException("The title is longer than " + MAX_NAME + " characters.");
        }
        return trimmed;
    }

    /**
     * A message trimmed and checked: 1 to {@value #MAX_BODY} characters.
     *
     * @throws IllegalArgumentException saying what is wrong, in words for the operator
     */
    public static String checkBody(String body) {
        String trimmed = body == null ? "" : body.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("Write a message for the people reading the page.");
        }
        if (trimmed.length() > MAX_BODY) {
            throw new IllegalArgumentException("The message is longer than " + MAX_BODY + " characters.");
        }
        return trimmed;
    }
}
