package dev.qaldy.runtime.bundles.entity;

import java.time.Instant;
import java.util.Objects;

/**
 * A live answer as kept in the data-centre cache: what the control plane said and when a runtime
 * host of this data centre learned it. The seal covers app, version and SHA-256; {@code learnedAt}
 * only bounds how long the record may be used while the control plane cannot be asked.
 */
public record LiveRecord(LiveVersion live, Instant learnedAt) {

    public LiveRecord {
        Objects.requireNonNull(live, "live");
        Objects.requireNonNull(learnedAt, "learnedAt");
    }
}
