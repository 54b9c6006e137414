package dev.qaldy.runtime.bundles.entity;

import java.util.Objects;

/** One built version of one app; its bundle never changes. */
public record BundleKey(String app, long version) {

    public BundleKey {
        Objects.requireNonNull(app, "app");
        if (version < 1) {
            throw new IllegalArgumentException("versions start at 1");
        }
    }

    @Override
    public String toString() {
        return app + " v" + version;
    }
}
