package dev.qaldy.control.audit.control;

import dev.qaldy.control.audit.entity.AuditEntry;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.platform.control.BulkInsert;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * Appends many events at once, joining the caller's transaction, with multi-row inserts
     * ({@link BulkInsert}): a scheduler tick after an outage writes one line per catch-up run,
     * 10,000 of them (issue 9). The same rows {@link #record} writes.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void recordAll(List<Audited> events) {
        if (events.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<Long> ids = BulkInsert.ids(em, AuditEntry.class, events.size());
        List<Object[]> rows = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            AuditEntry entry = new AuditEntry(events.get(i), now);
            rows.add(new Object[] {ids.get(i), entry.actor(), entry.action(), entry.appId(), entry.appName(), entry.target(),
                    entry.atMillis()});
        }
        BulkInsert.insert(em, "AUDIT_ENTRIES", COLUMNS, rows);
    }

    private static final List<String> COLUMNS = List.of("ID", "ACTOR", "ACTION", "APP_ID", "APP_NAME", "TARGET", "AT_MS");
}
