package dev.qaldy.control.audit.control;

import dev.qaldy.control.audit.entity.AuditEntry;
import dev.qaldy.control.audit.entity.Audited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;

/**
 * Persists every {@link Audited} event synchronously, inside the transaction of the change it
 * describes: the change and its audit line commit or roll back together.
 */
@ApplicationScoped
public class AuditRecorder {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    Clock clock;

    /** Appends {@code event} to the log, joining the caller's transaction. */
    @Transactional
    public void record(@Observes Audited event) {
        em.persist(new AuditEntry(event, clock.instant()));
    }
}
