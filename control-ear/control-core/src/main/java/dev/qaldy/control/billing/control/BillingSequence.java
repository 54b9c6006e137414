package dev.qaldy.control.billing.control;

import dev.qaldy.control.billing.entity.BillingClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/**
 * Hands out cap state sequences from the one {@link BillingClock} row, locked until the caller's
 * transaction ends: changes of cap states are serialized, and commit in sequence order.
 */
@ApplicationScoped
@Transactional(TxType.MANDATORY)
public class BillingSequence {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    BillingClockRow row;

    /** Locks the clock for the rest of the caller's transaction; take sequences from it with {@link BillingClock#next()}. */
    public BillingClock lock() {
        BillingClock clock = em.find(BillingClock.class, BillingClock.ID, LockModeType.PESSIMISTIC_WRITE);
        if (clock == null) {
            try {
                row.create();
            } catch (RuntimeException raced) {
                // Another transaction created it first: fine.
            }
            clock = em.find(BillingClock.class, BillingClock.ID, LockModeType.PESSIMISTIC_WRITE);
            if (clock == null) {
                throw new IllegalStateException("the billing clock row cannot be created");
            }
        }
        return clock;
    }
}
