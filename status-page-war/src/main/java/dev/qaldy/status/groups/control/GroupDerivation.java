package dev.qaldy.status.groups.control;

import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.groups.entity.UseGroup;
import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentKind;
import dev.qaldy.status.probes.entity.ComponentStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Each way of using the platform's status from its components' statuses:
 * <ul>
 * <li>a kind with several components (gates) is down when all are, partly down when some are;</li>
 * <li>a group is down when a kind it needs is down, partly down when a kind it needs is partly
 * down or a kind it partly needs is down; otherwise the worst of its kinds (starting, unknown,
 * slow, working, in that order);</li>
 * <li>over several cells, the same rule as for several gates;</li>
 * <li>kinds a cell does not list are left out; a group relying on none of a cell's kinds is not
 * in that cell.</li>
 * </ul>
 */
public final class GroupDerivation {

    private GroupDerivation() {
    }

    /** The groups of one cell, in display order, from its components' statuses by component id (missing: unknown). */
    public static List<GroupStatus> of(Cell cell, Map<String, ComponentStatus> statuses) {
        Map<ComponentKind, List<ComponentStatus>> byKind = new EnumMap<>(ComponentKind.class);
        for (Component component : cell.components()) {
            byKind.computeIfAbsent(component.kind(), k -> new ArrayList<>())
                    .add(statuses.getOrDefault(component.id(), ComponentStatus.UNKNOWN));
        }
        List<GroupStatus> groups = new ArrayList<>();
        for (UseGroup group : UseGroup.values()) {
            List<ComponentStatus> parts = new ArrayList<>();
            for (ComponentKind kind : group.needs()) {
                if (byKind.containsKey(kind)) {
                    parts.add(combine(byKind.get(kind)));
                }
            }
            for (ComponentKind kind : group.partlyNeeds()) {
                if (byKind.containsKey(kind)) {
                    ComponentStatus status = combine(byKind.get(kind));
                    parts.add(status == ComponentStatus.MAJOR_OUTAGE ? ComponentStatus.PARTIAL_OUTAGE : status);
                }
            }
            if (!parts.isEmpty()) {
                List<String> ids = cell.components().stream().filter(c -> group.reliesOn(c.kind())).map(Component::id).toList();
                groups.add(new GroupStatus(group, Collections.max(parts), ids));
            }
        }
        return List.copyOf(groups);
    }

    /** The groups over every cell, each from its statuses in the cells that have it, in display order. */
    public static List<GroupStatus> across(Collection<List<GroupStatus>> cells) {
        Map<UseGroup, List<ComponentStatus>> statuses = new EnumMap<>(UseGroup.class);
        Map<UseGroup, Set<String>> ids = new EnumMap<>(UseGroup.class);
        for (List<GroupStatus> cell : cells) {
            for (GroupStatus group : cell) {
                statuses.computeIfAbsent(group.group(), g -> new ArrayList<>()).add(group.status());
                ids.computeIfAbsent(group.group(), g -> new LinkedHashSet<>()).addAll(group.componentIds());
            }
        }
        List<GroupStatus> groups = new ArrayList<>();
        statuses.forEach((group, list) -> groups.add(new GroupStatus(group, combine(list), List.copyOf(ids.get(group)))));
        return List.copyOf(groups);
    }

    /**
     * Several statuses of one thing (gates of a cell, a group in several cells): down when all are
     * down, partly down when some are down or partly down, otherwise the worst.
     */
    public static ComponentStatus combine(Collection<ComponentStatus> statuses) {
        if (statuses.isEmpty()) {
            return ComponentStatus.UNKNOWN;
        }
        if (statuses.stream().allMatch(s -> s == ComponentStatus.MAJOR_OUTAGE)) {
            return ComponentStatus.MAJOR_OUTAGE;
        }
        if (statuses.stream().anyMatch(ComponentStatus::outage)) {
            return ComponentStatus.PARTIAL_OUTAGE;
        }
        return Collections.max(statuses);
    }
}
