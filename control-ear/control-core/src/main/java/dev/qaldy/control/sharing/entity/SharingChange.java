package dev.qaldy.control.sharing.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.util.Objects;

/**
 * One row of the cell-wide sharing-changes feed the gates pull (issue 3): app {@code app}'s
 * sharing changed to {@code sharingVersion}, as change number {@code sequence} (from the
 * {@link SharingClock}, so sequences commit in order). Bounded: the oldest rows are deleted once
 * more than the kept number exist; a gate further behind than that is told so and forgets all.
 */
@Entity
@Table(name = "SHARING_CHANGES")
@NamedQuery(name = SharingChange.AFTER, query = "SELECT c FROM SharingChange c WHERE c.sequence > :since ORDER BY c.sequence")
@NamedQuery(name = SharingChange.DELETE_UP_TO, query = "DELETE FROM SharingChange c WHERE c.sequence <= :floor")
public class SharingChange {

    public static final String AFTER = "SharingChange.after";
    public static final String DELETE_UP_TO = "SharingChange.deleteUpTo";

    @Id
    @Column(name = "SEQ")
    private long sequence;

    @Column(name = "APP_NAME", length = 63, nullable = false)
    private String app;

    @Column(name = "SHARING_VERSION", nullable = false)
    private long sharingVersion;

    /** Epoch milliseconds. */
    @Column(name = "CHANGED_AT", nullable = false)
    private long changedAt;

    protected SharingChange() {
    }

    /**
     * @param sequence       the change's place in the feed (from {@link SharingClock#next})
     * @param app            the app's name
     * @param sharingVersion the app's sharing version after the change
     * @param changedAtMs    epoch ms
     */
    public SharingChange(long sequence, String app, long sharingVersion, long changedAtMs) {
        this.sequence = sequence;
        this.app = Objects.requireNonNull(app, "app");
        this.sharingVersion = sharingVersion;
        this.changedAt = changedAtMs;
    }

    public long sequence() {
        return sequence;
    }

    public String app() {
        return app;
    }

    public long sharingVersion() {
        return sharingVersion;
    }
}
