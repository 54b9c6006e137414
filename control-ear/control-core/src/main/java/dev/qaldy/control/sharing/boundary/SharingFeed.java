package dev.qaldy.control.sharing.boundary;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.platform.control.SequenceRows;
import dev.qaldy.control.sharing.control.GateCursors;
import dev.qaldy.control.sharing.entity.SharingChange;
import dev.qaldy.control.sharing.entity.SharingChanged;
import dev.qaldy.control.sharing.entity.SharingClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The cell-wide feed of sharing changes the gates pull (issue 3): every share, revoke, change of
 * kind and app deletion is written here in the changing transaction, with a sequence that only
 * rises and commits in order ({@link SequenceRows}, {@link SharingClock}). A gate asks for the changes after its
 * cursor every {@code qaldy.gate.sync-interval} and tells its cursor with the question
 * ({@link GateCursors}), so the API can wait for a gate its push did not reach.
 *
 * <p>Bounded: at most {@value #KEPT} changes are kept; older ones are deleted as new ones come.
 */
@ApplicationScoped
@Transactional
public class SharingFeed {

    /** Most changes in one page. */
    public static final int MAX_PAGE = 1000;
    /** Most changes kept; a gate further behind than this is told {@code gap} and forgets every copy. */
    public static final long KEPT = 100_000;

    /**
     * One change as the gates see it.
     *
     * @param sequence       its place in the feed
     * @param app            the app's name
     * @param sharingVersion the app's sharing version after it
     */
    public record Change(long sequence, String app, long sharingVersion) {
    }

    /**
     * A page of the feed.
     *
     * @param changes the changes after the asked cursor, in order
     * @param next    the cursor after this page (the last change in it, or the asked cursor, or the
     *                feed's end when no cursor was asked or there is a gap)
     * @param more    true when the page was full
     * @param gap     true when changes after the asked cursor were deleted already: the gate must
     *                forget every copy and go on from {@code next}
     */
    public record Page(List<Change> changes, long next, boolean more, boolean gap) {
    }

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    SequenceRows sequence;

    @Inject
    Clock clock;

    /**
     * Writes a change of who may open {@code app} to the feed in the caller's transaction (which
     * locks the feed's clock until it ends), raises the app's sharing version to the change's place
     * in the feed ({@link App#sharingChanged(long)}), and returns the event to fire for the gates'
     * push. A new app is recorded too (no push needed: nobody remembers it), so its versions start
     * above every version its name had before a deletion.
     */
    @Transactional(TxType.MANDATORY)
    public SharingChanged record(App app) {
        long seq = sequence.next(SharingClock.class);
        long sharingVersion = app.sharingChanged(seq);
        em.persist(new SharingChange(seq, app.name(), sharingVersion, clock.millis()));
        if (seq > KEPT) {
            em.createNamedQuery(SharingChange.DELETE_UP_TO).setParameter("floor", seq - KEPT).executeUpdate();
        }
        return new SharingChanged(app.name(), sharingVersion, seq);
    }

    /**
     * The changes after {@code since}, at most {@code limit} (1..{@value #MAX_PAGE}); without a
     * cursor, no changes and the feed's end (a starting gate remembers nothing, so it needs none).
     */
    public Page changedSince(Optional<Long> since, int limit) {
        long end = sequence.last(SharingClock.class);
        if (since.isEmpty()) {
            return new Page(List.of(), end, false, false);
        }
        long after = since.get();
        if (after > end) {
            // A cursor from before the database was reset: every change since is unknown to the gate.
            return new Page(List.of(), end, false, true);
        }
        if (after < end - KEPT) {
            return new Page(List.of(), end, false, true);
        }
        List<Change> changes = em.createNamedQuery(SharingChange.AFTER, SharingChange.class)
                .setParameter("since", after).setMaxResults(limit).getResultStream()
                .map(c -> new Change(c.sequence(), c.app(), c.sharingVersion())).toList();
        long next = changes.isEmpty() ? after : changes.get(changes.size() - 1).sequence();
        return new Page(changes, next, changes.size() == limit, false);
    }
}
