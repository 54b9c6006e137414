package dev.qaldy.gate.access;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.health.ControlPlaneWitness;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.InternalFeed;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps this gate in touch with the sharing changes (issue 3), on its own managed thread (so a slow
 * job on the shared scheduler never looks like a stall). Every {@code qaldy.gate.sync-interval} it
 * pulls {@code GET /api/v1/internal/sharing-changes?since=<cursor>&gate=<qaldy.gate.url>} page by
 * page within {@code qaldy.gate.sync-timeout}, applying each change ({@link SharingChanges#applyPulled});
 * a completed round is a sync for {@link SyncState}; after a failed one it asks the runtime host
 * whether this gate alone is cut off ({@link RuntimeWitness}). It pulls at once when the control plane answers
 * again, and its watchdog ({@link SyncState#tick}) runs every {@value #TICK_MS} ms at most. Without
 * {@code qaldy.gate.url} the control plane cannot see this gate's pulls and waits its full bound.
 */
@ApplicationScoped
public class GateSync {

    static final String PATH = "/api/v1/internal/sharing-changes";
    static final int PAGE = 500;
    static final int MAX_PAGES = 20;
    static final int MAX_ANSWER_BYTES = 1024 * 1024;
    /** Ms. */
    static final long TICK_MS = 500;

    @Inject
    SharingChanges changes;

    @Inject
    InternalFeed feed;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    RuntimeWitness witness;

    @Inject
    GateConfig config;

    @Inject
    Logger log;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    @ConfigProperty(name = "qaldy.gate.sync-interval", defaultValue = "PT2S")
    Duration interval;

    /** All pages of one round. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.sync-timeout", defaultValue = "PT2S")
    Duration timeout;

    /** Must exceed interval + timeout. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.sync-max-gap", defaultValue = "PT10S")
    Duration maxGap;

    /** As {@code qaldy.control.gate-urls} lists it. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.url")
    Optional<String> selfUrl;

    private SyncState state;
    private UpstreamHealth.Probe ownProbe;
    private volatile boolean running;
    private Thread thread;
    /** Null until the first pull answered; sync thread only. */
    private Long cursor;
    private boolean reachable = true;

    @PostConstruct
    void configure() {
        if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()
                || maxGap.compareTo(interval.plus(timeout)) <= 0) {
            throw new IllegalStateException("qaldy.gate.sync-max-gap (" + maxGap + ") must exceed qaldy.gate.sync-interval ("
                    + interval + ") + qaldy.gate.sync-timeout (" + timeout + "), both positive");
        }
        state = new SyncState(System::nanoTime, maxGap);
        ownProbe = UpstreamHealth.httpGet(URI.create(config.controlUrl() + UpstreamHealth.CONTROL_PLANE_PROBE), RuntimeWitness.TIMEOUT);
    }

    public SyncState state() {
        return state;
    }

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        running = true;
        thread = threads.newThread(this::run);
        thread.setName("qaldy-gate-sync");
        Thread syncThread = thread;
        state.onSyncWanted(() -> LockSupport.unpark(syncThread));
        controlPlane.view().onUp(state::syncNow);
        thread.start();
        log.log(Level.INFO, "gate: pulling sharing changes every {0} (each round at most {1}); remembered access answers "
                + "are trusted only while the last sync is younger than {2}{3}",
                new Object[] {interval, timeout, maxGap, selfUrl.filter(u -> !u.isBlank()).map(u -> ", as " + u)
                        .orElse("; qaldy.gate.url is not set, so the API cannot see this gate's pulls")});
    }

    @PreDestroy
    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void run() {
        long nextPull = state.now();
        while (running) {
            if (state.tick()) {
                log.log(Level.WARNING, "gate: this process stalled for at least {0} (paused, or a long GC): remembered "
                        + "access answers are not trusted until the next sync", maxGap);
            }
            if (state.takeSyncWanted() || state.now() - nextPull >= 0) {
                round();
                nextPull = state.now() + interval.toNanos();
            }
            long sleepNanos = Math.max(1_000_000, Math.min(TICK_MS * 1_000_000, nextPull - state.now()));
            LockSupport.parkNanos(this, sleepNanos); // unparked when the API answers after a failure
            if (Thread.interrupted() && !running) {
                return;
            }
        }
    }

    void round() {
        long sent = state.now();
        long deadline = sent + timeout.toNanos();
        try {
            for (int page = 0; page < MAX_PAGES; page++) {
                if (!fetchPage(deadline)) {
                    state.pulled(sent);
                    if (!reachable) {
                        reachable = true;
                        log.log(Level.INFO, "gate: sharing changes: the control plane answers again (up to change {0})", cursor);
                    }
                    return;
                }
            }
            log.log(Level.INFO, "gate: sharing changes: more than {0} pages behind; going on next round", MAX_PAGES);
        } catch (IOException | RuntimeException e) {
            fail(e);
        } catch (InterruptedException e) {
            if (running) {
                fail(e);
            }
        }
    }

    private void fail(Exception e) {
        state.failed();
        if (reachable) {
            reachable = false;
            log.log(Level.INFO, "gate: sharing changes: cannot pull from the control plane ({0})", e.toString());
        }
        askWitness();
    }

    /**
     * During an outage: whether the runtime host still reaches the control plane (then this gate alone
     * is cut off). Before saying so the gate asks the control plane itself once more: one that just came
     * back answers the runtime host's probe a moment before this gate's.
     */
    private void askWitness() {
        long asked = state.now();
        long outageAgeMs = state.outageAgeMs(asked);
        if (outageAgeMs < 0) {
            return;
        }
        OptionalLong heard = witness.answeredMsAgo();
        if (heard.isEmpty() || !ControlPlaneWitness.cutOffAlone(outageAgeMs, heard.getAsLong(), controlPlane.view().answeredAgoMs())) {
            return;
        }
        if (controlPlaneAnswersThisGate()) {
            return;
        }
        // Decided again under the state's lock, with this gate's own last answer as it is after the
        // probe: the outage may have ended while the probe ran.
        if (state.witnessed(asked, heard.getAsLong(), controlPlane.view().answeredAgoMs())) {
            log.log(Level.WARNING, "gate: the runtime host reaches the control plane (it answered {0} ms ago) while this gate"
                    + " cannot: this gate alone is cut off (a network partition), and trusts none of its remembered access"
                    + " answers until the control plane answers it again", heard.getAsLong());
        }
    }

    /** One probe of the control plane ({@link UpstreamHealth#CONTROL_PLANE_PROBE}, {@link RuntimeWitness#TIMEOUT}); an answer turns the view up. */
    private boolean controlPlaneAnswersThisGate() {
        UpstreamHealth.Call call = controlPlane.view().call();
        try {
            ownProbe.ask();
            call.answered();
            return true;
        } catch (Exception e) {
            call.failed(UpstreamHealth.Failure.NO_ANSWER, "the probe after the runtime host's view: " + e);
            return false;
        }
    }

    /** True when there is more. */
    private boolean fetchPage(long deadlineNanos) throws IOException, InterruptedException {
        long left = deadlineNanos - state.now();
        if (left <= 0) {
            throw new IOException("a pull round took longer than " + timeout);
        }
        StringBuilder query = new StringBuilder("?limit=").append(PAGE);
        if (cursor != null) {
            query.append("&since=").append(cursor);
        }
        selfUrl.filter(u -> !u.isBlank())
                .ifPresent(u -> query.append("&gate=").append(URLEncoder.encode(u.trim(), StandardCharsets.UTF_8)));
        // Any answer but a 200 is a failed pull (logged once by fail()).
        byte[] body = feed.page(PATH + query, Duration.ofNanos(left), MAX_ANSWER_BYTES, "sharing changes");
        Page page = read(body, cursor);
        if (page.gap()) {
            changes.forgetAll();
        }
        for (Change change : page.changes()) {
            changes.applyPulled(change.app(), change.sharingVersion());
            cursor = change.sequence();
        }
        cursor = page.next();
        return page.more();
    }

    record Change(long sequence, String app, long sharingVersion) {
    }

    record Page(List<Change> changes, long next, boolean more, boolean gap) {
    }

    /**
     * Checked: changes in rising order after {@code after}, valid app names, whole non-negative
     * numbers, {@code next} not behind the last change.
     *
     * @throws IOException for anything else (nothing of the page is applied)
     */
    static Page read(byte[] body, Long after) throws IOException {
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            json = reader.readObject();
        } catch (RuntimeException e) {
            throw new IOException("sharing changes: not a JSON object", e);
        }
        if (!(json.get("changes") instanceof JsonArray array) || !(json.get("next") instanceof JsonNumber next) || !next.isIntegral()) {
            throw new IOException("sharing changes: an answer without changes or next");
        }
        boolean gap = json.getBoolean("gap", false);
        long last = after == null || gap ? Long.MIN_VALUE : after;
        List<Change> changes = new ArrayList<>();
        for (JsonValue value : array) {
            if (!(value instanceof JsonObject o) || !(o.get("app") instanceof JsonString app) || !AppLabel.valid(app.getString())
                    || !(o.get("sequence") instanceof JsonNumber seq) || !seq.isIntegral()
                    || !(o.get("sharingVersion") instanceof JsonNumber version) || !version.isIntegral()
                    || version.longValue() < 0 || seq.longValue() <= last) {
                throw new IOException("sharing changes: a change that is not {sequence, app, sharingVersion} in order: " + value);
            }
            last = seq.longValue();
            changes.add(new Change(last, app.getString(), version.longValue()));
        }
        if (next.longValue() < 0 || next.longValue() < last || (!gap && after != null && next.longValue() < after)) {
            throw new IOException("sharing changes: next " + next + " is behind the page");
        }
        return new Page(changes, next.longValue(), json.getBoolean("more", false) && !changes.isEmpty(), gap);
    }
}
