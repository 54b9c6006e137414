package dev.qaldy.control.platform.control;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Duration;

/**
 * Whether a write path can take its lock: every change of billing, shield settings and sharing takes
 * one sequence row ({@link SequenceRows}), so a transaction that holds such a row and never ends
 * wedges that whole write path (issue 14: every billing write waited 2 s and failed). The readiness
 * check asks here; each probe locks the row in a transaction of its own that is always rolled back,
 * so it changes nothing and holds the row only for the probe.
 */
@ApplicationScoped
public class WriteLocks {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Resource
    TransactionSynchronizationRegistry transaction;

    /**
     * Whether the row of {@code type} could be locked within {@code wait} (whole ms, at least 1): true
     * also while the row does not exist yet (nothing holds it).
     *
     * @throws jakarta.persistence.PersistenceException when the database cannot be asked
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean free(Class<? extends SequenceRow> type, Duration wait) {
        try {
            String select = "SELECT ID FROM " + SequenceRows.table(type) + " WHERE ID = " + SequenceRow.ID + " FOR UPDATE";
            if (DatabaseKind.current() == DatabaseKind.POSTGRES) {
                // PostgreSQL bounds a lock wait per transaction (SET LOCAL ends with it), not per statement.
                em.createNativeQuery("SET LOCAL lock_timeout = '" + Math.max(1, wait.toMillis()) + "ms'").executeUpdate();
                em.createNativeQuery(select).getResultList();
            } else {
                // H2's per-statement bound (also Oracle's); the session's LOCK_TIMEOUT stays as it is.
                em.createNativeQuery(select + " WAIT " + seconds(wait)).getResultList();
            }
            return true;
        } catch (RuntimeException e) {
            if (LockWaits.ranOut(e)) {
                return false;
            }
            throw e;
        } finally {
            transaction.setRollbackOnly();
        }
    }

    /** {@code wait} in seconds with three decimals, as the {@code WAIT} clause reads it. */
    static String seconds(Duration wait) {
        long ms = Math.max(1, wait.toMillis());
        return ms / 1000 + "." + String.format("%03d", ms % 1000);
    }
}
