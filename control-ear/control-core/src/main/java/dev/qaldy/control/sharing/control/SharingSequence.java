package dev.qaldy.control.sharing.control;

import dev.qaldy.control.sharing.entity.SharingClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/** Sequences of the sharing-changes feed, from the {@link SharingClock} row. */
@ApplicationScoped
public class SharingSequence {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    SharingClockRow row;

    /** Locks the clock for the rest of the caller's transaction and takes the next sequence. */
    @Transactional(TxType.MANDATORY)
    public long next() {
        SharingClock clock = em.find(SharingClock.class, SharingClock.ID, LockModeType.PESSIMISTIC_WRITE);
        if (clock == null) {
            try {
                row.create(); // a bean of its own: its new transaction needs the interceptor
            } catch (RuntimeException raced) {
                // another transaction created it first
            }
            clock = em.find(SharingClock.class, SharingClock.ID, LockModeType.PESSIMISTIC_WRITE);
            if (clock == null) {
                throw new IllegalStateException("the sharing clock row cannot be created");
            }
        }
        return clock.next();
    }

    /** The last committed sequence, without a lock; 0 before any change. */
    @Transactional(TxType.SUPPORTS)
    public long last() {
        SharingClock clock = em.find(SharingClock.class, SharingClock.ID);
        return clock == null ? 0 : clock.last();
    }
}
