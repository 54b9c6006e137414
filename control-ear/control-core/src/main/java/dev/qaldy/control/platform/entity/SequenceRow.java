package dev.qaldy.control.platform.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * A table of one row that hands out a sequence (1, 2, 3, …). A change locks the row
 * (pessimistic write) until its transaction ends, so sequences commit in the order they are
 * taken: a reader that read everything up to S never misses a record below S that commits later.
 * Each subclass is its own table ({@code ID}, {@code LAST_SEQUENCE}); like every entity it is read
 * from the database each time (no shared cache: {@code persistence.xml}), since several
 * control-plane processes may share the database.
 */
@MappedSuperclass
public abstract class SequenceRow {

    /** The id of the one row. */
    public static final long ID = 1;

    @Id
    @Column(name = "ID")
    private long id = ID;

    @Column(name = "LAST_SEQUENCE", nullable = false)
    private long lastSequence;

    /** The next sequence (the first is 1). */
    public long next() {
        return ++lastSequence;
    }

    /** The last sequence handed out; 0 before any. */
    public long last() {
        return lastSequence;
    }
}
