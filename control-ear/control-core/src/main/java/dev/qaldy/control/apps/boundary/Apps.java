package dev.qaldy.control.apps.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.apps.entity.AppKind;
import dev.qaldy.control.apps.entity.AppName;
import dev.qaldy.control.apps.entity.AppView;
import dev.qaldy.control.apps.entity.AppVisibility;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.BundleBytes;
import dev.qaldy.control.builds.entity.LiveClock;
import dev.qaldy.control.data.boundary.Records;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.people.boundary.People;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.PublicUrls;
import dev.qaldy.control.platform.control.SequenceRows;
import dev.qaldy.control.schedules.entity.Run;
import dev.qaldy.control.schedules.entity.Schedule;
import dev.qaldy.control.sharing.entity.Share;
import dev.qaldy.control.shield.boundary.Shields;
import dev.qaldy.control.tickets.entity.Ticket;
import dev.qaldy.control.webhooks.control.HookChanges;
import dev.qaldy.control.webhooks.entity.Delivery;
import dev.qaldy.control.webhooks.entity.Hook;
import jakarta.enterprise.context.ApplicationScoped;
import dev.qaldy.control.sharing.boundary.SharingFeed;
import dev.qaldy.control.sharing.entity.SharingChanged;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Apps: create, list the ones a person owns or may view, show, change their kind, delete. */
@ApplicationScoped
@Transactional
public class Apps {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    People people;

    @Inject
    PublicUrls urls;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    @Inject
    Event<SharingChanged> sharingChanged;

    @Inject
    SharingFeed feed;

    @Inject
    Records records;

    @Inject
    Shields shields;

    @Inject
    SequenceRows sequences;

    @Inject
    HookChanges hookChanges;

    /**
     * Creates an app (behind sign-in) owned by {@code me}.
     *
     * @throws dev.qaldy.control.platform.control.InvalidInput naming the rule a bad name breaks
     * @throws Conflict when the name is taken
     */
    public AppView create(Session me, String name) {
        return create(me, name, AppKind.APP);
    }

    /**
     * Creates an app or a public site owned by {@code me}; a site is audited as {@code app.kind} too.
     *
     * @throws dev.qaldy.control.platform.control.InvalidInput naming the rule a bad name breaks
     * @throws Conflict when the name is taken
     */
    public AppView create(Session me, String name, AppKind kind) {
        AppName.check(name);
        if (guard.byName(name).isPresent()) {
            throw new Conflict("the app name " + name + " is taken");
        }
        App app = new App(name, people.signedIn(me.personId()), clock.instant(), kind);
        try {
            em.persist(app);
            em.flush();
        } catch (PersistenceException raced) {
            throw new Conflict("the app name " + name + " is taken");
        }
        feed.record(app); // its first sharing version: above any its name had before (no push: nobody remembers it)
        audit.fire(new Audited(me.email(), Audited.APP_CREATE, app.id(), name, name));
        if (kind.isPublic()) {
            audit.fire(new Audited(me.email(), Audited.APP_KIND, app.id(), name, kind.json()));
        }
        return view(app, AppView.OWNER);
    }

    /**
     * Makes the app a public site or an app behind sign-in (owner only). A real change raises the
     * sharing version and is pushed to every gate before the API answers (like a revoke), so no
     * gate keeps serving a former site without sign-in from what it remembered; audited as
     * {@code app.kind}. Asking for the kind it already has changes nothing.
     */
    public AppView changeKind(Session me, String name, AppKind kind) {
        App app = guard.ownedForUpdate(me, name);
        if (app.kind() != kind) {
            app.changeKind(kind);
            sharingChanged.fire(feed.record(app));
            audit.fire(new Audited(me.email(), Audited.APP_KIND, app.id(), name, kind.json()));
        }
        return view(app, AppView.OWNER);
    }

    /**
     * Sets whether every build of the app that succeeds goes live by itself, or only its first one
     * (owner only); audited as {@code app.promote-every-build} with the new value. The same value again
     * changes nothing.
     */
    public AppView promoteEveryBuild(Session me, String name, boolean every) {
        App app = guard.ownedForUpdate(me, name);
        if (app.promotesEveryBuild() != every) {
            app.promoteEveryBuild(every);
            audit.fire(new Audited(me.email(), Audited.APP_PROMOTE_EVERY_BUILD, app.id(), name, Boolean.toString(every)));
        }
        return view(app, AppView.OWNER);
    }

    /**
     * Whether anyone may open {@code name} without signing in, for the gate.
     *
     * @throws dev.qaldy.control.platform.control.NotFound when there is no such app
     */
    public AppVisibility visibility(String name) {
        return AppVisibility.of(guard.existing(name));
    }

    /** The apps {@code me} owns and the ones shared with {@code me}, by name. */
    public List<AppView> visibleTo(Session me) {
        List<AppView> views = new ArrayList<>();
        em.createNamedQuery(App.OWNED_BY, App.class).setParameter("personId", me.personId()).getResultList()
                .forEach(app -> views.add(view(app, AppView.OWNER)));
        em.createNamedQuery(App.SHARED_WITH, App.class).setParameter("email", me.email()).getResultList().stream()
                .filter(app -> !app.isOwnedBy(me.personId()))
                .forEach(app -> views.add(view(app, AppView.VIEWER)));
        views.sort(Comparator.comparing(AppView::name));
        return views;
    }

    /** One app as {@code me} sees it (owner or viewer; anyone else gets 404). */
    public AppView show(Session me, String name) {
        App app = guard.visible(me, name);
        return view(app, app.isOwnedBy(me.personId()) ? AppView.OWNER : AppView.VIEWER);
    }

    /**
     * Deletes the app with its builds, bundles, shares, tickets, schedules, runs, hooks and data
     * (owner only), and clears its shield settings; the audit log keeps its lines. A change of the
     * live clock: the tombstone the live answer signs from now on is newer than any live record of it.
     */
    public void delete(Session me, String name) {
        App app = guard.ownedForUpdate(me, name);
        sequences.next(LiveClock.class);
        em.createNamedQuery(BundleBytes.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        em.createNamedQuery(Build.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        em.createNamedQuery(Share.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        em.createNamedQuery(Ticket.DELETE_OF_APP).setParameter("app", name).executeUpdate();
        em.createNamedQuery(Schedule.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        em.createNamedQuery(Run.DELETE_OF_APP).setParameter("appId", app.id()).executeUpdate();
        em.createNamedQuery(Delivery.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        em.createNamedQuery(Hook.OF_APP, Hook.class).setParameter("app", app).getResultList()
                .forEach(hook -> hookChanges.deleted(name, hook.name())); // every gate forgets them (issue 17)
        em.createNamedQuery(Hook.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        em.createNamedQuery(DataRecord.DELETE_OF_APP).setParameter("app", app).executeUpdate();
        records.appDeleted(app);
        em.remove(app);
        shields.clearFor(name); // the gates forget its shield settings
        sharingChanged.fire(feed.record(app));
        audit.fire(new Audited(me.email(), Audited.APP_DELETE, app.id(), name, name));
    }

    private AppView view(App app, String role) {
        return new AppView(app.name(), app.owner().email(), role, app.liveVersion(), urls.app(app.name()),
                app.kind().json(), app.promotesEveryBuild());
    }
}
