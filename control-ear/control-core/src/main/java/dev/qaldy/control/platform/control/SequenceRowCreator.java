package dev.qaldy.control.platform.control;

import dev.qaldy.control.platform.entity.SequenceRow;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.lang.reflect.InvocationTargetException;

/**
 * Creates a sequence table's one row, in a transaction of its own, the first time it is needed.
 * {@link SequenceRows} calls it on the managed executor, a thread with no transaction: never from
 * inside another transaction (see there why).
 */
@ApplicationScoped
public class SequenceRowCreator {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /** Inserts the row unless it exists; a concurrent insert makes this throw, which the caller ignores. */
    @Transactional(TxType.REQUIRED)
    public void create(Class<? extends SequenceRow> type) {
        if (em.find(type, SequenceRow.ID) == null) {
            try {
                em.persist(type.getDeclaredConstructor().newInstance());
            } catch (InstantiationException | IllegalAccessException | InvocationTargetException | NoSuchMethodException e) {
                throw new IllegalStateException(type.getSimpleName() + " needs a public no-argument constructor", e);
            }
            em.flush();
        }
    }
}
