package dev.qaldy.gate.sites;

import dev.qaldy.gate.access.FailureClass;
import dev.qaldy.gate.access.GateSync;
import dev.qaldy.gate.access.SyncState;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import dev.qaldy.gate.sites.SiteDecision.Source;
import dev.qaldy.gate.sites.SiteDecision.Verdict;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The public-site step, before the session: may anyone open this app without signing in? A fresh
 * copy, else the control plane's answer ({@link VisibilityClient}), else on a control-plane failure
 * (or while {@link ControlPlaneHealth} is in doubt and a copy is held) a copy younger than the access
 * memory. Fails closed: an app never learned to be public, an answer outside the contract, a gate
 * error, or a "public" older than a known sharing change is {@link Verdict#UNKNOWN}, never public.
 * Copies count only as {@link SyncState} allows (issue 3), as for access.
 */
@ApplicationScoped
public class PublicSites {

    @FunctionalInterface
    interface Asker {
        VisibilityAnswer ask(String app) throws ControlPlaneUnavailable;
    }

    @FunctionalInterface
    interface Doubt {
        boolean now();
    }

    @Inject
    VisibilityClient client;

    @Inject
    Clock clock;

    @Inject
    GateSync gateSync;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.gate.access-freshness", defaultValue = "PT30S")
    String freshnessText;

    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory", defaultValue = "PT30M")
    String memoryText;

    @Inject
    @ConfigProperty(name = "qaldy.gate.site-memory-max-entries", defaultValue = "100000")
    long maxEntries;

    private Asker asker;
    private Doubt doubt;
    private SyncState sync;
    private Duration freshness;
    private Duration memoryAge;
    private SiteMemory memory;
    private final AtomicBoolean failing = new AtomicBoolean();

    public PublicSites() {
    }

    /** For tests: the rule without a container. */
    PublicSites(Asker asker, Doubt doubt, SyncState sync, Clock clock, Logger log, Duration freshness, Duration memoryAge,
            long maxEntries) {
        this.clock = clock;
        this.log = log;
        init(asker, doubt, sync, freshness, memoryAge, maxEntries);
    }

    @PostConstruct
    void start() {
        init(app -> controlPlane.call(() -> client.ask(app)), () -> controlPlane.view().inDoubt(), gateSync.state(),
                duration("qaldy.gate.access-freshness", freshnessText), duration("qaldy.gate.access-memory", memoryText), maxEntries);
    }

    private void init(Asker asker, Doubt doubt, SyncState sync, Duration freshness, Duration memoryAge, long maxEntries) {
        this.asker = asker;
        this.doubt = doubt;
        this.sync = sync;
        this.freshness = freshness;
        this.memoryAge = memoryAge;
        this.memory = new SiteMemory(clock, memoryAge, maxEntries);
    }

    /** Never throws: a failure inside the gate is {@link Verdict#UNKNOWN}. */
    public SiteDecision check(String app) {
        try {
            return decide(app);
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "gate: deciding whether " + app + " is public failed; treating it as not public", e);
            return SiteDecision.unknown("gate error: " + e);
        }
    }

    /** The control plane's push: the app's copy is dropped before the push is answered. */
    public void sharingChanged(String app, long sharingVersion) {
        if (memory.sharingChanged(app, sharingVersion)) {
            log.log(Level.FINE, "gate: dropped what it remembered of whether {0} is public (sharing version {1})",
                    new Object[] {app, Long.toString(sharingVersion)});
        }
    }

    /** A pulled change: applied like a push unless the gate already knows {@code app} at that version or newer. */
    public void pulledChange(String app, long sharingVersion) {
        if (memory.newestVersion(app) < sharingVersion) {
            sharingChanged(app, sharingVersion);
        }
    }

    /** After a gap in the sharing-changes feed. */
    public void forgetAll() {
        memory.forgetAll();
    }

    public long remembered() {
        return memory.size();
    }

    SiteDecision decide(String app) {
        long before = clock.millis();
        Optional<SiteCopy> copy = memory.recall(app);
        if (copy.isPresent() && copy.get().youngerThan(freshness, before) && sync.inTouchNow()) {
            return fromCopy(copy.get(), Source.FRESH_COPY);
        }
        if (copy.isPresent() && doubt.now() && sync.trustsCopies()) {
            // In doubt: the copy stands in, nobody waits.
            return failed(app, new ControlPlaneUnavailable("control plane in doubt; not asked"));
        }
        VisibilityAnswer answer;
        try {
            answer = asker.ask(app);
        } catch (ControlPlaneUnavailable | RuntimeException e) {
            if (Thread.interrupted()) {
                log.log(Level.FINE, "gate: cleared the interrupt a timeout left on this thread");
            }
            return failed(app, e);
        }
        sync.answered();
        if (failing.compareAndSet(true, false)) {
            log.log(Level.INFO, "gate: the control plane answers visibility questions again");
        }
        return switch (answer.kind()) {
            case PUBLIC, PRIVATE -> {
                boolean isPublic = answer.kind() == VisibilityAnswer.Kind.PUBLIC;
                if (!memory.learn(app, isPublic, answer.sharingVersion(), answer.accountId(), before) && isPublic) {
                    // Asked before a change the gate already heard of: that "public" may be gone.
                    yield SiteDecision.unknown("a public answer older than sharing version " + memory.newestVersion(app));
                }
                yield new SiteDecision(isPublic ? Verdict.PUBLIC : Verdict.PRIVATE, Source.ASKED, answer.accountId(),
                        "control plane said " + answer.detail());
            }
            case UNKNOWN_APP -> {
                memory.forget(app);
                yield new SiteDecision(Verdict.PRIVATE, Source.ASKED, VisibilityAnswer.NO_ACCOUNT, "no such app");
            }
            case UNUSABLE -> SiteDecision.unknown("unusable visibility answer: " + answer.detail());
        };
    }

    /** The control plane's failure lets a young enough copy stand in; the gate's own never does. */
    private SiteDecision failed(String app, Throwable failure) {
        if (FailureClass.of(failure) == FailureClass.GATE) {
            log.log(Level.WARNING, "gate: asking whether " + app + " is public failed inside the gate", failure);
            return SiteDecision.unknown("gate error: " + failure);
        }
        if (failing.compareAndSet(false, true)) {
            log.log(Level.INFO, "gate: the control plane stopped answering visibility questions; public sites it "
                    + "answered for in the last {0} stay public, others are not served without sign-in: {1}",
                    new Object[] {memoryAge, failure.toString()});
        }
        sync.failed();
        if (!sync.trustsCopies()) {
            return SiteDecision.unknown("control plane failure, copies not trusted: " + sync.why());
        }
        Optional<SiteCopy> copy = memory.recall(app); // a push may have cleared it while the question was out
        if (copy.isEmpty()) {
            return SiteDecision.unknown("control plane failure, nothing remembered: " + failure);
        }
        return fromCopy(copy.get(), Source.OUTAGE_COPY);
    }

    private static SiteDecision fromCopy(SiteCopy copy, Source source) {
        return new SiteDecision(copy.isPublic() ? Verdict.PUBLIC : Verdict.PRIVATE, source, copy.accountId(),
                (copy.isPublic() ? "public" : "private") + " from a " + source.header());
    }

    private static Duration duration(String property, String value) {
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalStateException(property + " must be an ISO-8601 duration like PT30M: " + value, e);
        }
    }
}
