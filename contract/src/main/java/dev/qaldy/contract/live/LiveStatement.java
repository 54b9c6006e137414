package dev.qaldy.contract.live;

import java.time.Instant;
import java.util.Objects;

/**
 * What the control plane says is live for one app: a version and its bundle's SHA-256 (lower-case
 * hex), or a tombstone (nothing live). {@code sequence} is the cell's live clock, grown by every
 * promote, rollback and deletion, so the higher one is newer (issue 16: an older sealed version must
 * not go live again); a tombstone carries the clock when signed, 0 where nothing ever went live.
 *
 * @param version  from 1; 0 in a tombstone
 * @param issuedAt bounds how long a host may use it in an outage
 */
public record LiveStatement(String app, long version, String sha256, long sequence, Instant issuedAt) {

    public LiveStatement {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(issuedAt, "issuedAt");
        if (version == 0) {
            if (sha256 != null || sequence < 0) {
                throw new IllegalArgumentException("a tombstone names no bundle and a sequence from 0");
            }
        } else if (version < 1 || sequence < 1 || sha256 == null || !sha256.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a live statement needs a version and a sequence from 1 and a SHA-256 of"
                    + " 64 lower-case hex characters");
        }
    }

    public static LiveStatement live(String app, long version, String sha256, long sequence, Instant issuedAt) {
        return new LiveStatement(app, version, sha256, sequence, issuedAt);
    }

    public static LiveStatement tombstone(String app, long sequence, Instant issuedAt) {
        return new LiveStatement(app, 0, null, sequence, issuedAt);
    }

    public boolean gone() {
        return version == 0;
    }
}
