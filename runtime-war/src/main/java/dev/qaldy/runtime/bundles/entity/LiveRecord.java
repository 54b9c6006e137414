package dev.qaldy.runtime.bundles.entity;

import java.time.Instant;
import java.util.Objects;

/**
 * A signed live record as kept in the data-centre cache and verified: the live version of
 * {@code app} ({@code live}), or — a tombstone, {@code live} null — nothing, as of live-clock
 * {@code sequence}. {@code learnedAt} is when the control plane signed it (the record's own
 * {@code iat}, so nobody who can write the cache can make it look younger); it bounds how long the
 * record may be used while the control plane cannot be asked.
 */
public record LiveRecord(String app, LiveVersion live, long sequence, Instant learnedAt) {

    public LiveRecord {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(learnedAt, "learnedAt");
        if (live != null && !live.app().equals(app)) {
            throw new IllegalArgumentException("a record of " + app + " holding " + live.app());
        }
    }

    /** True for a tombstone: the app is gone or has nothing live. */
    public boolean gone() {
        return live == null;
    }
}
