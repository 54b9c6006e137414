package dev.qaldy.control.apps.control;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.apps.entity.AppName;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.platform.control.NotPermitted;
import dev.qaldy.control.sharing.entity.Share;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.Optional;

/**
 * Finds apps for a person and enforces who may do what: the owner everything; a viewer (shared by
 * email) only sees the app; anyone else gets 404, so an app's existence does not leak.
 */
@ApplicationScoped
@Transactional(TxType.MANDATORY)
public class AppGuard {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /** The app named {@code name}, if any. */
    public Optional<App> byName(String name) {
        if (!AppName.isWellFormed(name)) {
            return Optional.empty();
        }
        return em.createNamedQuery(App.BY_NAME, App.class).setParameter("name", name).getResultStream().findFirst();
    }

    /** @throws NotFound when there is no app of that name at all */
    public App existing(String name) {
        return byName(name).orElseThrow(() -> notFound(name));
    }

    /** @throws NotFound unless {@code me} owns the app or it is shared with {@code me} */
    public App visible(Session me, String name) {
        App app = existing(name);
        if (!app.isOwnedBy(me.personId()) && !isSharedWith(app, me.email())) {
            throw notFound(name);
        }
        return app;
    }

    /**
     * The app, for its owner.
     *
     * @throws NotFound     unless {@code me} may see the app
     * @throws NotPermitted when {@code me} is only a viewer
     */
    public App owned(Session me, String name) {
        App app = visible(me, name);
        if (!app.isOwnedBy(me.personId())) {
            throw new NotPermitted("only the owner of " + name + " may do this");
        }
        return app;
    }

    /**
     * Like {@link #owned} and locks the app's row until the transaction ends, which serializes
     * changes of its build and sharing counters.
     */
    public App ownedForUpdate(Session me, String name) {
        App app = owned(me, name);
        em.refresh(app, LockModeType.PESSIMISTIC_WRITE);
        return app;
    }

    /** Whether {@code app} is shared with {@code email}. */
    public boolean isSharedWith(App app, String email) {
        return em.createNamedQuery(Share.COUNT, Long.class).setParameter("app", app).setParameter("email", email)
                .getSingleResult() > 0;
    }

    private static NotFound notFound(String name) {
        return new NotFound("no app named " + (AppName.isWellFormed(name) ? name : "like that") + " that you can see");
    }
}
