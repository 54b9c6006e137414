package dev.qaldy.control.platform.control;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/**
 * The one-row sequence tables ({@link SequenceRow}: billing, shield settings, sharing changes):
 * locks a row for the rest of the caller's transaction, creating it the first time it is needed,
 * so sequences taken from it commit in the order they are taken.
 */
@ApplicationScoped
public class SequenceRows {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    SequenceRowCreator creator;

    /**
     * Locks the row of {@code type} (pessimistic write) until the caller's transaction ends; take
     * sequences from it with {@link SequenceRow#next()}.
     *
     * @throws IllegalStateException when the row can be neither found nor created
     * @throws jakarta.persistence.PersistenceException when the database cannot be reached
     */
    @Transactional(TxType.MANDATORY)
    public <T extends SequenceRow> T lock(Class<T> type) {
        T row = em.find(type, SequenceRow.ID, LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            try {
                creator.create(type); // a bean of its own: its new transaction needs the interceptor
            } catch (RuntimeException raced) {
                // another transaction created it first
            }
            row = em.find(type, SequenceRow.ID, LockModeType.PESSIMISTIC_WRITE);
            if (row == null) {
                throw new IllegalStateException("the " + type.getSimpleName() + " row cannot be created");
            }
        }
        return row;
    }

    /** Locks the row of {@code type} and takes its next sequence (the first is 1). */
    @Transactional(TxType.MANDATORY)
    public long next(Class<? extends SequenceRow> type) {
        return lock(type).next();
    }

    /** The last committed sequence of {@code type}, without a lock; 0 before any. */
    @Transactional(TxType.SUPPORTS)
    public long last(Class<? extends SequenceRow> type) {
        SequenceRow row = em.find(type, SequenceRow.ID);
        return row == null ? 0 : row.last();
    }
}
