package dev.qaldy.control.sharing.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.people.entity.EmailAddress;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.sharing.entity.Share;
import dev.qaldy.control.sharing.entity.SharingChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.List;

/** Who else may open an app: the owner grants and revokes viewers by email; each change bumps the sharing version. */
@ApplicationScoped
@Transactional
public class Shares {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    @Inject
    Event<SharingChanged> sharingChanged;

    @Inject
    SharingFeed feed;

    /** The app's viewers, by email (owner only). */
    public List<Share> list(Session me, String appName) {
        App app = guard.owned(me, appName);
        return em.createNamedQuery(Share.OF_APP, Share.class).setParameter("app", app).getResultList();
    }

    /**
     * Shares the app with {@code rawEmail}, who need not have an account yet (owner only).
     *
     * @throws InvalidInput for a bad email or the owner's own
     * @throws Conflict     when already shared with that email
     */
    public Share grant(Session me, String appName, String rawEmail) {
        String email = EmailAddress.normalize(rawEmail);
        App app = guard.ownedForUpdate(me, appName);
        if (email.equals(app.owner().email())) {
            throw new InvalidInput("the owner can always open " + appName + "; no share needed");
        }
        if (guard.isSharedWith(app, email)) {
            throw new Conflict(appName + " is already shared with " + email);
        }
        Share share = new Share(app, email, clock.instant());
        em.persist(share);
        sharingChanged.fire(feed.record(app));
        audit.fire(new Audited(me.email(), Audited.SHARE, app.id(), app.name(), email));
        return share;
    }

    /**
     * Stops sharing the app with {@code rawEmail} (owner only).
     *
     * @throws NotFound when it was not shared with that email
     */
    public void revoke(Session me, String appName, String rawEmail) {
        String email = EmailAddress.normalize(rawEmail);
        App app = guard.ownedForUpdate(me, appName);
        Share share = em.createNamedQuery(Share.FIND, Share.class).setParameter("app", app).setParameter("email", email)
                .getResultStream().findFirst()
                .orElseThrow(() -> new NotFound(appName + " is not shared with " + email));
        em.remove(share);
        sharingChanged.fire(feed.record(app));
        audit.fire(new Audited(me.email(), Audited.REVOKE, app.id(), app.name(), email));
    }
}
