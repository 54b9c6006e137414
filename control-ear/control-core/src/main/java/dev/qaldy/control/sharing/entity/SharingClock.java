package dev.qaldy.control.sharing.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * The one row that hands out sharing-change sequences. A change locks it until its transaction
 * ends, so sequences commit in the order they are taken: a gate that read every change up to S
 * never misses one below S that commits later (the same rule as the shield clock).
 */
@Entity
@Table(name = "SHARING_CLOCK")
public class SharingClock extends SequenceRow {

    public SharingClock() {
    }
}
