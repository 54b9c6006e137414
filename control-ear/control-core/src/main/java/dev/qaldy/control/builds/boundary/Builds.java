package dev.qaldy.control.builds.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.builds.control.Manifest;
import dev.qaldy.control.builds.control.UploadSpool.Spooled;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.BuildQueued;
import dev.qaldy.control.builds.entity.BuildStatus;
import dev.qaldy.control.builds.entity.BundleBytes;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotFound;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.List;

/** Builds of an app: queue an upload, read results, promote a version, and hand bundles to the runtime host. */
@ApplicationScoped
@Transactional
public class Builds {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    @Inject
    Event<BuildQueued> queued;

    /** Checks, before any byte of an upload is read, that {@code me} may upload to the app. */
    public void checkUploader(Session me, String appName) {
        guard.owned(me, appName);
    }

    /**
     * Records version N+1 as queued; the builder starts once this transaction commits. The first
     * build that succeeds while nothing is live goes live by itself ({@code BuildRecorder}).
     *
     * @param upload the spooled archive; the builder owns it from the commit on
     * @throws InvalidInput (400) when its {@code qaldy.json} names another app (issue 20)
     */
    public Build queue(Session me, String appName, Spooled upload) {
        Manifest.declaredName(upload.file()).filter(declared -> !declared.equals(appName)).ifPresent(declared -> {
            throw new InvalidInput(otherAppMessage(declared, appName));
        });
        App app = guard.ownedForUpdate(me, appName);
        long version = app.nextBuildVersion();
        Build build = new Build(app, version, me.email(), upload.bytes(), clock.instant());
        em.persist(build);
        em.flush();
        audit.fire(new Audited(me.email(), Audited.BUILD, app.id(), app.name(), "version " + version));
        queued.fire(new BuildQueued(build.id(), app.name(), version, upload.file()));
        return build;
    }

    /** Why an archive made for {@code declared} is not built as {@code appName}, with what to do instead. */
    static String otherAppMessage(String declared, String appName) {
        String shown = declared.length() > 63 ? declared.substring(0, 63) + "…" : declared;
        return "This archive's qaldy.json names the app \"" + shown + "\", not \"" + appName + "\". Set \"name\" to \""
                + appName + "\" in qaldy.json and upload it again, or upload it to the app \"" + shown + "\".";
    }

    /** All builds of the app, newest first (owner only). */
    public List<Build> list(Session me, String appName) {
        App app = guard.owned(me, appName);
        return em.createNamedQuery(Build.OF_APP, Build.class).setParameter("app", app).getResultList();
    }

    /** One build (owner only). */
    public Build show(Session me, String appName, long version) {
        return byVersion(guard.owned(me, appName), version);
    }

    /**
     * Makes a succeeded version live (owner only).
     *
     * @throws Conflict when that version did not build successfully
     */
    public Build promote(Session me, String appName, long version) {
        App app = guard.ownedForUpdate(me, appName);
        Build build = byVersion(app, version);
        if (build.status() != BuildStatus.SUCCEEDED) {
            throw new Conflict("version " + version + " of " + appName + " is " + build.status().label()
                    + "; only a succeeded build can go live");
        }
        app.promote(version);
        audit.fire(new Audited(me.email(), Audited.PROMOTE, app.id(), app.name(), "version " + version));
        return build;
    }

    /**
     * The live build of an app, for the runtime host.
     *
     * @throws NotFound when there is no such app or nothing is live
     */
    public Build live(String appName) {
        App app = guard.existing(appName);
        if (app.liveVersion() == null) {
            throw new NotFound("app " + appName + " has no live version");
        }
        return byVersion(app, app.liveVersion());
    }

    /**
     * A built version's bundle bytes, for the runtime host.
     *
     * @throws NotFound when the app, the version or its bundle is gone
     */
    public byte[] bundle(String appName, long version) {
        Build build = byVersion(guard.existing(appName), version);
        BundleBytes bytes = build.status() == BuildStatus.SUCCEEDED ? em.find(BundleBytes.class, build.id()) : null;
        if (bytes == null) {
            throw new NotFound("version " + version + " of " + appName + " has no bundle");
        }
        return bytes.data();
    }

    private Build byVersion(App app, long version) {
        return em.createNamedQuery(Build.BY_VERSION, Build.class).setParameter("app", app).setParameter("version", version)
                .getResultStream().findFirst()
                .orElseThrow(() -> new NotFound("app " + app.name() + " has no version " + version));
    }
}
