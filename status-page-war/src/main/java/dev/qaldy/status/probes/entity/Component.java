package dev.qaldy.status.probes.entity;

import java.net.URI;
import java.util.Objects;

/**
 * One row of the status page: a component of one cell.
 *
 * @param id      unique over all cells: {@code <cell>.<key>}, e.g. {@code local.control}
 * @param cell    the cell's name
 * @param kind    what it is
 * @param key     unique within the cell: the kind's key, with {@code -2}, {@code -3} … for more of one kind
 * @param name    what people read, e.g. "Gate 2"
 * @param baseUrl where its {@code /health/ready} lives; {@code null} for kinds read from the control plane
 */
public record Component(String id, String cell, ComponentKind kind, String key, String name, URI baseUrl) {

    public Component {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(kind, "kind");
        if (kind.probedDirectly() != (baseUrl != null)) {
            throw new IllegalArgumentException(kind + " needs " + (kind.probedDirectly() ? "a" : "no") + " base URL");
        }
    }

    /** The {@code n}-th (from 1) component of {@code kind} in {@code cell}. */
    public static Component of(String cell, ComponentKind kind, int n, URI baseUrl) {
        String key = n == 1 ? kind.key() : kind.key() + "-" + n;
        String name = n == 1 ? kind.title() : kind.title() + " " + n;
        return new Component(cell + "." + key, cell, kind, key, name, baseUrl);
    }

    /** The readiness endpoint this component is probed at; only for kinds probed directly. */
    public URI readinessUrl() {
        if (baseUrl == null) {
            throw new IllegalStateException(id + " is not probed directly");
        }
        return URI.create(baseUrl + "/health/ready");
    }
}
