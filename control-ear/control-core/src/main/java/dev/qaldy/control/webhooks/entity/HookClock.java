package dev.qaldy.control.webhooks.entity;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * The one row that hands out the sequences of hook changes ({@link HookChange}). A change locks it
 * until its transaction ends, so a gate that read every change up to S never misses one below S
 * that commits later (as {@code ShieldClock}).
 */
@Entity
@Table(name = "HOOK_CLOCK")
public class HookClock extends SequenceRow {

    public HookClock() {
    }
}
