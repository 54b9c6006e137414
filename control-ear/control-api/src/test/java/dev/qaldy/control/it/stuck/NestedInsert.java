package dev.qaldy.control.it.stuck;

import dev.qaldy.control.billing.entity.UsageBatchRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;

/** Test only (added to the IT's WAR, never shipped): a nested transaction whose commit fails. */
@ApplicationScoped
public class NestedInsert {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /** Inserts a batch id that exists already, unflushed: the insert, and so the commit, fails. */
    @Transactional(TxType.REQUIRES_NEW)
    public void insertTaken(String batchId) {
        em.persist(new UsageBatchRecord(batchId, "test", Instant.now(), "{}"));
    }
}
