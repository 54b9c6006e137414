package dev.qaldy.control.sharing.entity;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The one row that hands out sharing-change sequences. A change locks it until its transaction
 * ends, so sequences commit in the order they are taken: a gate that read every change up to S
 * never misses one below S that commits later (the same rule as the shield clock).
 */
@Entity
@Cacheable(false)
@Table(name = "SHARING_CLOCK")
public class SharingClock {

    public static final long ID = 1;

    @Id
    @Column(name = "ID")
    private long id = ID;

    @Column(name = "LAST_SEQUENCE", nullable = false)
    private long lastSequence;

    public SharingClock() {
    }

    /** The next sequence (the first is 1). */
    public long next() {
        return ++lastSequence;
    }

    /** The last sequence handed out; 0 before any. */
    public long last() {
        return lastSequence;
    }
}
