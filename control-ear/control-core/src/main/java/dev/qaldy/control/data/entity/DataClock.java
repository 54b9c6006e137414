package dev.qaldy.control.data.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
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
}
