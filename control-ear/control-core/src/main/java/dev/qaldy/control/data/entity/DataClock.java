package dev.qaldy.control.data.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Table;

/**
 * The one row that hands out the sequences of data changes (issue 18): every write of a record
 * locks it until its transaction ends, so a runtime host that read every change up to S never
 * misses one below S that commits later (as {@code HookClock}). Its last sequence is the feed's head.
 */
@Entity
@Table(name = "DATA_CLOCK")
public class DataClock extends SequenceRow {

    public DataClock() {
    }

    /** The data feed's head: the last change committed (0 before any), read from the database, not a cached row. */
    public static long head(EntityManager em) {
        return em.createQuery("SELECT c.lastSequence FROM DataClock c", Long.class).getResultStream().findFirst().orElse(0L);
    }
}
