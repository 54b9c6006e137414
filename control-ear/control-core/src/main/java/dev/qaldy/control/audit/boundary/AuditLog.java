package dev.qaldy.control.audit.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.audit.entity.AuditEntry;
import dev.qaldy.control.platform.control.InvalidInput;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.util.List;

/** Reads the audit log: what a person may see is their own actions and everything on apps they own. */
@ApplicationScoped
@Transactional
public class AuditLog {

    /** Largest page, in entries. */
    public static final int MAX_LIMIT = 200;

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /**
     * A page of entries visible to {@code me}, newest first.
     *
     * @param limit  entries per page, 1..200
     * @param before only entries with an id below this (the previous page's last id), or {@code null}
     */
    public List<AuditEntry> visibleTo(Session me, int limit, Long before) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidInput("limit must be between 1 and " + MAX_LIMIT);
        }
        String visible = "(e.actor = :email OR e.appId IN (SELECT a.id FROM App a WHERE a.owner.id = :personId))";
        TypedQuery<AuditEntry> query = em.createQuery("SELECT e FROM AuditEntry e WHERE " + visible
                + (before == null ? "" : " AND e.id < :before") + " ORDER BY e.id DESC", AuditEntry.class)
                .setParameter("email", me.email())
                .setParameter("personId", me.personId())
                .setMaxResults(limit);
        if (before != null) {
            query.setParameter("before", before);
        }
        return query.getResultList();
    }
}
