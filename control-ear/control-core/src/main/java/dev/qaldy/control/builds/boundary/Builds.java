package dev.qaldy.control.builds.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.apps.entity.AppName;
import dev.qaldy.control.builds.control.LiveRecordSigner;
import dev.qaldy.control.builds.control.Manifest;
import dev.qaldy.control.builds.control.NoLiveVersion;
import dev.qaldy.control.builds.control.UploadSpool.Spooled;
import dev.qaldy.control.builds.entity.Build;
import dev.qaldy.control.builds.entity.BuildQueued;
import dev.qaldy.control.builds.entity.BuildStatus;
import dev.qaldy.control.builds.entity.BundleBytes;
import dev.qaldy.control.builds.entity.LiveBuild;
import dev.qaldy.control.builds.entity.LiveClock;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
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

    @Inject
    SequenceRows sequences;

    @Inject
    LiveRecordSigner signer;

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
     * Makes a succeeded version live (owner only), a newer or an older one (a rollback), as the next
     * change of the live clock: the runtime hosts refuse a signed live record older than one they saw.
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
        app.promote(version, sequences.next(LiveClock.class));
        audit.fire(new Audited(me.email(), Audited.PROMOTE, app.id(), app.name(), "version " + version));
        return build;
    }

    /**
     * The live build of an app with its signed live record, for the runtime host. A live version
     * promoted before the live clock existed is given the clock's next sequence here, once.
     *
     * @throws NoLiveVersion when there is no such app or nothing is live, with a tombstone signed at
     *         the live clock's last sequence (a version promoted later has a higher one)
     * @throws NotFound when the name is no app name at all (nothing signed for it)
     */
    public LiveBuild live(String appName) {
        App app = guard.byName(appName).orElse(null);
        if (app == null || app.liveVersion() == null) {
            if (!AppName.isWellFormed(appName)) {
                throw new NotFound("there is no app named like that");
            }
            // The clock first, then the app again: a promote committed before the clock was read is seen,
            // and one committed after has a higher sequence than this tombstone.
            long liveClock = sequences.last(LiveClock.class);
            if (app != null) {
                em.refresh(app);
            } else {
                app = guard.byName(appName).orElse(null);
            }
            if (app == null || app.liveVersion() == null) {
                throw new NoLiveVersion(app == null ? "there is no app named " + appName : "app " + appName + " has no live version",
                        signer.tombstone(appName, liveClock));
            }
        }
        if (app.liveSequence() == null) {
            // Locked and read again first (app row, then clock, as promote does): a promote in between wins.
            em.refresh(app, LockModeType.PESSIMISTIC_WRITE);
            if (app.liveSequence() == null) {
                app.assignLiveSequence(sequences.next(LiveClock.class));
            }
        }
        Build build = byVersion(app, app.liveVersion());
        return new LiveBuild(build, signer.live(build, app.liveSequence()));
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
