package dev.qaldy.control.shield.control;

import dev.qaldy.control.shield.entity.ShieldClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/** Creates the shield clock's one row, in a transaction of its own, the first time it is needed. */
@ApplicationScoped
public class ShieldClockRow {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /** Inserts the row unless it exists; a concurrent insert makes this throw, which the caller ignores. */
    @Transactional(TxType.REQUIRES_NEW)
    public void create() {
        if (em.find(ShieldClock.class, ShieldClock.ID) == null) {
            em.persist(new ShieldClock());
            em.flush();
        }
    }
}
