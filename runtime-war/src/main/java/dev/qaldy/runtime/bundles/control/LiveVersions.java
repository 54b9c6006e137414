package dev.qaldy.runtime.bundles.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.runtime.bundles.entity.CodeSource;
import dev.qaldy.runtime.bundles.entity.LiveRecord;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.bundles.entity.Sourced;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Which version of an app is live. Within {@code freshness} the control plane's last outcome (a
 * version or "gone") is used as it is; after it the control plane is asked. Only when it cannot be
 * asked (connect error, timeout, 5xx) does the host fall back, for at most {@code live-memory} after
 * the last answer (seed: 30 minutes): to that answer, else to the sealed live record in the
 * data-centre cache, else 503. "Gone" (a 404, or a tombstone in the cache) is never replaced by a
 * copy (issue 16): a 404 while fresh, a 503 after, as a version may have gone live since. A question
 * not asked because the host's view says failing leaves no failure to be fresh; while the view is in
 * doubt, an app with a version held is answered from it without asking (issue 14).
 */
@ApplicationScoped
public class LiveVersions {

    static final int MAX_APPS_REMEMBERED = 100_000;

    private ControlPlaneClient controlPlane;
    private DataCentreCache copies;
    private Duration freshness;
    private Duration memoryBound;
    private Clock clock;
    private Logger log;
    private Cache<String, Remembered> memory;
    private final SingleFlight<String, Sourced<LiveVersion>> asking = new SingleFlight<>();
    /** Orders questions and forgetting: an answer to an older question never replaces a newer outcome. */
    private final AtomicLong questions = new AtomicLong();
    private final AtomicBoolean reachable = new AtomicBoolean(true);

    protected LiveVersions() {
    }

    /**
     * @param freshness   how long the control plane's last outcome for an app is used without asking again
     * @param memoryBound how long after the control plane's last answer it may stand in while it cannot be asked
     */
    @Inject
    public LiveVersions(ControlPlaneClient controlPlane, DataCentreCache copies,
            @ConfigProperty(name = "qaldy.runtime.live-freshness", defaultValue = "PT5S") Duration freshness,
            @ConfigProperty(name = "qaldy.runtime.live-memory", defaultValue = "PT30M") Duration memoryBound,
            Clock clock, Logger log) {
        this.controlPlane = controlPlane;
        this.copies = copies;
        this.freshness = freshness;
        this.memoryBound = memoryBound;
        this.clock = clock;
        this.log = log;
        this.memory = Caffeine.newBuilder().maximumSize(MAX_APPS_REMEMBERED).executor(Runnable::run).build();
    }

    /**
     * The live version of {@code app} and where it came from: {@link CodeSource#API} (asked now or
     * within the freshness window), {@link CodeSource#MEMORY} or {@link CodeSource#DC_COPY} (the
     * control plane could not be asked).
     *
     * @throws NotPublishedException            no such app or nothing published (said now, or remembered)
     * @throws ControlPlaneUnavailableException the control plane could not be asked and nothing usable is remembered
     * @throws UnexpectedAnswerException        the control plane answered outside the contract
     */
    public Sourced<LiveVersion> live(String app) {
        Instant now = clock.instant();
        Remembered known = memory.getIfPresent(app);
        if (known != null) {
            if (known.answeredAt() != null && now.isBefore(known.answeredAt().plus(freshness))) {
                if (known.gone()) {
                    throw new NotPublishedException("control plane said a moment ago: no live version of " + app);
                }
                if (known.live() != null) {
                    return new Sourced<>(known.live(), CodeSource.API);
                }
            }
            if (known.failedAt() != null && now.isBefore(known.failedAt().plus(freshness))) {
                // The control plane failed a moment ago: that outcome is fresh too, so no waiting on it again.
                return fallback(app, new ControlPlaneUnavailableException("control plane failed for " + app
                        + " at " + known.failedAt() + ", within the freshness window"));
            }
        }
        if (controlPlane.health().inDoubt()) {
            // A call or the heartbeat just got no answer (issue 14): what is held answers, nobody waits.
            Optional<Sourced<LiveVersion>> held = held(app, now);
            if (held.isPresent()) {
                return held.get();
            }
        }
        return asking.run(app, () -> ask(app));
    }

    /**
     * Forgets what the control plane said about {@code app} (e.g. its live version's bundle is
     * gone); the next request asks again, and an answer to a question asked before this is ignored.
     */
    public void forget(String app) {
        memory.put(app, new Remembered(questions.incrementAndGet(), null, false, null, null));
    }

    private Sourced<LiveVersion> ask(String app) {
        long question = questions.incrementAndGet();
        try {
            LiveVersion live = controlPlane.live(app);
            Instant at = clock.instant();
            if (store(app, new Remembered(question, live, false, at, null))) {
                copies.remember(live, at);
            }
            reached();
            return new Sourced<>(live, CodeSource.API);
        } catch (NotPublishedException e) {
            store(app, new Remembered(question, null, true, clock.instant(), null));
            // Gone: so are its copies and indexes, and its record becomes the signed tombstone, so no later
            // outage can bring it back, on this host or another of the data centre (issue 16).
            copies.gone(app, e.tombstone());
            reached();
            throw e;
        } catch (UnexpectedAnswerException e) {
            reached();
            throw e;
        } catch (ControlPlaneUnavailableException e) {
            Instant at = clock.instant();
            if (e.asked()) {
                memory.asMap().merge(app, new Remembered(0, null, false, null, at), (old, failed) -> old.failedAt(at));
            }
            if (reachable.compareAndSet(true, false)) {
                log.log(Level.INFO, "Control plane cannot be asked; serving what it said before, for at most {0}: {1}",
                        new Object[] {memoryBound, e.getMessage()});
            } else {
                log.log(Level.FINE, "Control plane still cannot be asked: {0}", e.getMessage());
            }
            return fallback(app, e);
        }
    }

    /** The last live answer while the control plane cannot be asked: memory, else the data-centre record, else {@code cause}. */
    private Sourced<LiveVersion> fallback(String app, ControlPlaneUnavailableException cause) {
        return held(app, clock.instant()).orElseThrow(() -> cause);
    }

    /**
     * What stands in for the control plane: the version it last gave, else the data-centre record,
     * each within the memory bound; empty when neither is usable.
     *
     * @throws ControlPlaneUnavailableException the data-centre record is a tombstone, or the control plane's last word was "gone", longer ago than
     *         the freshness window: no copy replaces it, and it is no 404 either, since a version may
     *         have gone live since (issue 14's soak: an app promoted a moment before the API hung was
     *         "No such app" to its viewers for the whole outage)
     */
    private Optional<Sourced<LiveVersion>> held(String app, Instant now) {
        Remembered known = memory.getIfPresent(app);
        if (known != null && known.gone()) {
            throw new ControlPlaneUnavailableException("control plane cannot be asked, and said last (" + known.answeredAt()
                    + "): no live version of " + app + "; whether one went live since is unknown, and no copy stands in");
        }
        if (known != null && known.live() != null && usable(known.answeredAt(), now)) {
            return Optional.of(new Sourced<>(known.live(), CodeSource.MEMORY));
        }
        Optional<LiveRecord> record = copies.liveRecord(app);
        if (record.isPresent() && record.get().gone()) {
            throw new ControlPlaneUnavailableException("control plane cannot be asked, and its signed record (live-clock "
                    + record.get().sequence() + ") says " + app + " has nothing live; whether one went live since is unknown");
        }
        if (record.isPresent() && usable(record.get().learnedAt(), now)) {
            return Optional.of(new Sourced<>(record.get().live(), CodeSource.DC_COPY));
        }
        return Optional.empty();
    }

    /** Seed: what the serving side remembers lasts at most this long after the control plane said it. */
    private boolean usable(Instant answeredAt, Instant now) {
        return !now.isAfter(answeredAt.plus(memoryBound));
    }

    /** Replaces the remembered outcome unless a newer question's outcome (or a forget) is already there. */
    private boolean store(String app, Remembered outcome) {
        Remembered kept = memory.asMap().merge(app, outcome,
                (old, fresh) -> old.question() > fresh.question() ? old : fresh);
        return kept == outcome;
    }

    private void reached() {
        if (reachable.compareAndSet(false, true)) {
            log.info("Control plane answers again");
        }
    }

    /**
     * What the host remembers of one app: the control plane's last answer (a version, or gone) and
     * when it came, and when asking last failed. {@code question} orders outcomes.
     */
    private record Remembered(long question, LiveVersion live, boolean gone, Instant answeredAt, Instant failedAt) {

        Remembered failedAt(Instant at) {
            return new Remembered(question, live, gone, answeredAt, at);
        }
    }
}
