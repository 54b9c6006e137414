package dev.qaldy.control.webhooks.control;

import dev.qaldy.control.platform.control.SequenceRows;
import dev.qaldy.control.webhooks.entity.Hook;
import dev.qaldy.control.webhooks.entity.HookChange;
import dev.qaldy.control.webhooks.entity.HookChanged;
import dev.qaldy.control.webhooks.entity.HookClock;
import dev.qaldy.contract.hooks.HookMaterial;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Records each made or deleted hook as a change of the gates' feed, in the changing transaction,
 * and fires {@link HookChanged} so it is pushed to every gate once committed (issue 17).
 */
@ApplicationScoped
@Transactional(TxType.MANDATORY)
public class HookChanges {

    /** Most changes in one page of the feed. */
    public static final int MAX_PAGE = 1000;

    /** A page of the feed: {@code next} the last sequence in it, {@code more} when the page was full. */
    public record Page(List<HookMaterial> changes, long next, boolean more) {
    }

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    SequenceRows sequences;

    @Inject
    Event<HookChanged> changed;

    @Inject
    Clock clock;

    public void made(Hook hook) {
        long sequence = record(hook.app().name(), hook.name(), false);
        changed.fire(new HookChanged(hook.material(sequence, clock.instant())));
    }

    public void deleted(String app, String hook) {
        long sequence = record(app, hook, true);
        changed.fire(new HookChanged(HookMaterial.deleted(app, hook, sequence)));
    }

    /**
     * Changes after {@code since} in sequence order, at most {@code limit}; a made hook with its secret.
     * A hook made before the feed existed gets its change first (once), so the gates learn it too.
     */
    @Transactional(TxType.REQUIRED)
    public Page since(long since, int limit) {
        List<Hook> unrecorded = em.createQuery("SELECT h FROM Hook h WHERE NOT EXISTS (SELECT c FROM HookChange c"
                + " WHERE c.appName = h.app.name AND c.hookName = h.name) ORDER BY h.id", Hook.class).getResultList();
        unrecorded.forEach(hook -> record(hook.app().name(), hook.name(), false));
        List<HookChange> rows = em.createNamedQuery(HookChange.CHANGED_SINCE, HookChange.class).setParameter("since", since)
                .setMaxResults(limit).getResultList();
        List<HookMaterial> out = new ArrayList<>();
        for (HookChange row : rows) {
            Hook hook = row.deleted() ? null : em.createQuery(
                    "SELECT h FROM Hook h WHERE h.app.name = :app AND h.name = :name", Hook.class)
                    .setParameter("app", row.appName()).setParameter("name", row.hookName()).getResultStream().findFirst().orElse(null);
            out.add(hook == null ? HookMaterial.deleted(row.appName(), row.hookName(), row.sequence())
                    : hook.material(row.sequence(), clock.instant()));
        }
        long next = rows.isEmpty() ? since : rows.get(rows.size() - 1).sequence();
        return new Page(out, next, rows.size() == limit);
    }

    private long record(String app, String hook, boolean deleted) {
        long sequence = sequences.next(HookClock.class);
        HookChange row = em.find(HookChange.class, HookChange.key(app, hook));
        if (row == null) {
            row = new HookChange(app, hook);
            row.changed(sequence, deleted);
            em.persist(row);
        } else {
            row.changed(sequence, deleted);
        }
        return sequence;
    }
}
