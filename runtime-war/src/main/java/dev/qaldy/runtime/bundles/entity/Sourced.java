package dev.qaldy.runtime.bundles.entity;

import java.util.Objects;

/** A value together with where it came from: the control plane, the host's memory or the data-centre copy. */
public record Sourced<T>(T value, CodeSource source) {

    public Sourced {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
    }
}
