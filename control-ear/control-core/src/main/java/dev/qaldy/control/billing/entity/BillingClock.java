package dev.qaldy.control.billing.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * The one row that hands out cap state sequences. A change locks it until its transaction ends,
 * so sequences are committed in the order they are taken: an edge that read every state up to
 * sequence S never misses one below S that commits later.
 */
@Entity
@Table(name = "BILLING_CLOCK")
public class BillingClock extends SequenceRow {

    public BillingClock() {
    }
}
