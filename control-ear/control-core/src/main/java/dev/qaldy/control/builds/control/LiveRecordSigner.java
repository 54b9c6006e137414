package dev.qaldy.control.builds.control;

import dev.qaldy.contract.live.LiveStatement;
import dev.qaldy.contract.live.LiveStatements;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.platform.control.CellKeyring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/** Signs live records and tombstones with the cell's key, the one that signs seals and cap states. */
@ApplicationScoped
public class LiveRecordSigner {

    @Inject
    CellKeyring keys;

    @Inject
    Clock clock;

    /** {@code build} is live as live-clock change {@code sequence}. */
    public String live(Build build, long sequence) {
        return LiveStatements.sign(LiveStatement.live(build.app().name(), build.version(), build.sha256(), sequence,
                clock.instant()), keys.signingKey());
    }

    /** Nothing of {@code app} is live as of live-clock value {@code sequence}. */
    public String tombstone(String app, long sequence) {
        return LiveStatements.sign(LiveStatement.tombstone(app, sequence, clock.instant()), keys.signingKey());
    }
}
