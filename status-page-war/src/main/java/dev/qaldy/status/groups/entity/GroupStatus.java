package dev.qaldy.status.groups.entity;

import dev.qaldy.status.probes.entity.ComponentStatus;
import java.util.List;
import java.util.Objects;

/**
 * How one way of using the platform is doing, derived from the components it relies on.
 *
 * @param group        which one
 * @param status       derived from its components' statuses
 * @param componentIds the components it relies on, in display order
 */
public record GroupStatus(UseGroup group, ComponentStatus status, List<String> componentIds) {

    public GroupStatus {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(status, "status");
        componentIds = List.copyOf(componentIds);
    }
}
