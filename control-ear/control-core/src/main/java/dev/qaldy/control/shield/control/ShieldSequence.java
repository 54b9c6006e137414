package dev.qaldy.control.shield.control;

import dev.qaldy.control.shield.entity.ShieldClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/** The next shield-settings sequence, from the {@link ShieldClock} row locked until the caller's transaction ends. */
@ApplicationScoped
public class ShieldSequence {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    ShieldClockRow row;

    /** Locks the clock for the rest of the caller's transaction and takes the next sequence. */
    @Transactional(TxType.MANDATORY)
    public long next() {
        ShieldClock clock = em.find(ShieldClock.class, ShieldClock.ID, LockModeType.PESSIMISTIC_WRITE);
        if (clock == null) {
            try {
                row.create(); // a bean of its own: its new transaction needs the interceptor
            } catch (RuntimeException raced) {
                // another transaction created it first
            }
            clock = em.find(ShieldClock.class, ShieldClock.ID, LockModeType.PESSIMISTIC_WRITE);
            if (clock == null) {
                throw new IllegalStateException("the shield clock row cannot be created");
            }
        }
        return clock.next();
    }
}
