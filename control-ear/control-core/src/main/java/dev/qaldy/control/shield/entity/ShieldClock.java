package dev.qaldy.control.shield.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * The one row that hands out shield-settings sequences. A change locks it until its transaction
 * ends, so sequences commit in the order they are taken: a gate that read every change up to S
 * never misses one below S that commits later.
 */
@Entity
@Table(name = "SHIELD_CLOCK")
public class ShieldClock extends SequenceRow {

    public ShieldClock() {
    }
}
