package dev.qaldy.status.probes.entity;

import java.util.List;
import java.util.Optional;

/**
 * One watched cell and its components, in display order. A cell with a control plane also has
 * the database, builder and scheduler rows, read from the control plane's readiness.
 */
public record Cell(String name, List<Component> components) {

    public Cell {
        components = List.copyOf(components);
    }

    /** The control plane, when the cell lists one. */
    public Optional<Component> control() {
        return components.stream().filter(c -> c.kind() == ComponentKind.CONTROL).findFirst();
    }

    /** Components with a readiness endpoint of their own. */
    public List<Component> probedDirectly() {
        return components.stream().filter(c -> c.kind().probedDirectly()).toList();
    }

    /** Components read from the control plane's readiness. */
    public List<Component> reportedByControl() {
        return components.stream().filter(c -> !c.kind().probedDirectly()).toList();
    }
}
