package dev.qaldy.control.shield.entity;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The one row that hands out shield-settings sequences. A change locks it until its transaction
 * ends, so sequences commit in the order they are taken: a gate that read every change up to S
 * never misses one below S that commits later.
 */
@Entity
@Cacheable(false)
@Table(name = "SHIELD_CLOCK")
public class ShieldClock {

    public static final long ID = 1;

    @Id
    @Column(name = "ID")
    private long id = ID;

    @Column(name = "LAST_SEQUENCE", nullable = false)
    private long lastSequence;

    public ShieldClock() {
    }

    /** The next sequence. */
    public long next() {
        return ++lastSequence;
    }
}
