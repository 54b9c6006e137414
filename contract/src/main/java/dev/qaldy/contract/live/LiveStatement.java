package dev.qaldy.contract.live;

import java.time.Instant;
import java.util.Objects;

/**
 * What the control plane says is live for one app: version {@code version} whose bundle hashes to
 * {@code sha256} (lower-case hex), or — a tombstone — nothing (no such app, or nothing promoted).
 * {@code sequence} is the cell's live clock: it grows with every promote, rollback and app deletion
 * of any app, so of two statements about one app the higher sequence is the newer (issue 16: an
 * older sealed version written back into the shared cache must not go live again). A live
 * statement carries the sequence of its promote (from 1); a tombstone the clock's value when it was
 * signed (0 in a cell where nothing ever went live).
 *
 * @param version  the live version (from 1); 0 in a tombstone
 * @param sha256   the bundle's SHA-256; null in a tombstone
 * @param issuedAt when the control plane signed it (bounds how long a host may use it in an outage)
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

    /** Version {@code version} of {@code app} went live as change {@code sequence} of the live clock. */
    public static LiveStatement live(String app, long version, String sha256, long sequence, Instant issuedAt) {
        return new LiveStatement(app, version, sha256, sequence, issuedAt);
    }

    /** Nothing of {@code app} is live as of the live clock's {@code sequence}. */
    public static LiveStatement tombstone(String app, long sequence, Instant issuedAt) {
        return new LiveStatement(app, 0, null, sequence, issuedAt);
    }

    /** True when nothing is live: the app is gone or has no live version. */
    public boolean gone() {
        return version == 0;
    }
}
