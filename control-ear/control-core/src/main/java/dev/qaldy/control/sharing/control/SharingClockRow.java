package dev.qaldy.control.sharing.control;

import dev.qaldy.control.sharing.entity.SharingClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/** Creates the sharing clock's one row, in a transaction of its own, the first time it is needed. */
@ApplicationScoped
public class SharingClockRow {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /** Inserts the row unless it exists; a concurrent insert makes this throw, which the caller ignores. */
    @Transactional(TxType.REQUIRES_NEW)
    public void create() {
        if (em.find(SharingClock.class, SharingClock.ID) == null) {
            em.persist(new SharingClock());
            em.flush();
        }
    }
}
