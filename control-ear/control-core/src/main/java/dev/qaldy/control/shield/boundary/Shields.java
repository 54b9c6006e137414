package dev.qaldy.control.shield.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.platform.control.SequenceRows;
import dev.qaldy.control.shield.entity.AppShield;
import dev.qaldy.control.shield.entity.ShieldClock;
import dev.qaldy.control.shield.entity.ShieldRules;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.List;

/**
 * An app's shield settings (rate limits, daily limit, blocked user agents, denied ranges): shown
 * to and changed by its owner, audited, and fed to the gates in sequence order
 * ({@link #changedSince}). The gates keep what they last fetched, so the shield never waits for the API.
 */
@ApplicationScoped
@Transactional
public class Shields {

    /** Most changes in one page of the feed. */
    public static final int MAX_PAGE = 1000;

    /**
     * One app's settings as the owner and the gates see them.
     *
     * @param app       the app's name
     * @param rules     the settings ({@link ShieldRules#NONE} for an app that never set any, or was deleted)
     * @param sequence  of the last change; 0 for none
     * @param updatedAt epoch ms of the last change; 0 for none
     */
    public record View(String app, ShieldRules rules, long sequence, long updatedAt) {
    }

    /** A page of the feed: changes after the asked sequence, {@code next} the last one in it, {@code more} when the page was full. */
    public record Page(List<View> changes, long next, boolean more) {
    }

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    SequenceRows sequence;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    /** The app's settings, for its owner (a viewer gets 403, anyone else 404). */
    public View show(Session me, String name) {
        App app = guard.owned(me, name);
        AppShield held = em.find(AppShield.class, app.name());
        return held == null ? new View(app.name(), ShieldRules.NONE, 0, 0) : view(held);
    }

    /** Replaces the app's settings (owner only), with an audit log line. */
    public View set(Session me, String name, ShieldRules rules) {
        App app = guard.ownedForUpdate(me, name);
        AppShield held = em.find(AppShield.class, app.name());
        if (held == null) {
            held = new AppShield(app.name());
            held.set(rules, sequence.next(ShieldClock.class), clock.instant());
            em.persist(held);
        } else {
            held.set(rules, sequence.next(ShieldClock.class), clock.instant());
        }
        audit.fire(new Audited(me.email(), Audited.SHIELD, app.id(), app.name(), rules.summary()));
        return view(held);
    }

    /**
     * Clears a deleted app's settings with a new sequence, so every gate forgets them; called in
     * the deleting transaction. Nothing to do for an app that never had any.
     */
    public void clearFor(String app) {
        AppShield held = em.find(AppShield.class, app);
        if (held != null && !held.rules().none()) {
            held.set(ShieldRules.NONE, sequence.next(ShieldClock.class), clock.instant());
        }
    }

    /** Changes after {@code since}, in sequence order, at most {@code limit} (1..{@value #MAX_PAGE}). */
    public Page changedSince(long since, int limit) {
        List<AppShield> rows = em.createNamedQuery(AppShield.CHANGED_SINCE, AppShield.class)
                .setParameter("since", since).setMaxResults(limit).getResultList();
        List<View> views = rows.stream().map(Shields::view).toList();
        long next = views.isEmpty() ? since : views.get(views.size() - 1).sequence();
        return new Page(views, next, views.size() == limit);
    }

    private static View view(AppShield held) {
        return new View(held.app(), held.rules(), held.sequence(), held.updatedAt().toEpochMilli());
    }
}
