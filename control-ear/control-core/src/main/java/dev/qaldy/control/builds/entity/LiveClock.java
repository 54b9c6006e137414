package dev.qaldy.control.builds.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * The one row that hands out live-clock sequences: one per change of what is live for any app
 * (promote, rollback — a promote of an older version — and app deletion). The runtime hosts keep
 * the highest they saw per app and refuse an older signed live record (issue 16, item 4).
 */
@Entity
@Table(name = "LIVE_CLOCK")
public class LiveClock extends SequenceRow {

    public LiveClock() {
    }
}
