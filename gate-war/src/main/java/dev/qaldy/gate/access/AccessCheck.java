package dev.qaldy.gate.access;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * The access step: a fresh copy, else ask ({@link AccessClient}) and remember the answer, else on a
 * control-plane failure what {@link AccessMemory} holds; {@link AccessPolicy} decides every case.
 * Fails closed: an exception is a 503, never an allow. While the control plane is failing, or in
 * doubt and the person has a copy, it is not asked (issue 14: nobody on a copy waits for a timeout).
 * Logs INFO when the control plane stops and starts answering, and when a copy first lets people into
 * an app during a failure.
 */
@ApplicationScoped
public class AccessCheck {

    static final Duration COPY_LOG_INTERVAL = Duration.ofMinutes(1);

    @Inject
    AccessClient client;

    @Inject
    AccessMetrics metrics;

    @Inject
    GateSync gateSync;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.gate.access-freshness", defaultValue = "PT30S")
    String freshness;

    /** Seed: 30 minutes. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory", defaultValue = "PT30M")
    String memoryAge;

    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory-max-entries", defaultValue = "1000000")
    long maxEntries;

    /** Issue 3: bounded; an evicted app's copies go with it. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory-max-apps", defaultValue = "100000")
    long maxApps = AccessMemory.DEFAULT_MAX_APPS;

    AccessPolicy policy;
    AccessMemory memory;
    /** Issue 3; set by tests, else from {@link GateSync}. */
    SyncState sync;
    /** Set by tests, else from {@link ControlPlaneHealth}. */
    UpstreamHealth health;

    private final AtomicBoolean failing = new AtomicBoolean();
    private final Map<String, Long> copyLogged = new ConcurrentHashMap<>();

    /** Creates the bean at start, so the memory's state is in the log at once. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        log.log(Level.FINE, "gate: access check ready");
    }

    @PostConstruct
    void start() {
        policy = new AccessPolicy(duration("qaldy.gate.access-freshness", freshness),
                duration("qaldy.gate.access-memory", memoryAge));
        memory = new AccessMemory(clock, policy.memory(), maxEntries, maxApps);
        if (sync == null) {
            sync = gateSync.state();
        }
        if (health == null) {
            health = controlPlane.view();
        }
        metrics.watch(memory);
        log.log(Level.INFO, "gate: access memory is empty: during an outage every person is refused until the "
                + "control plane answers (answers are used without asking for {0}, remembered for {1} from the "
                + "API''s last answer, at most {2} of them, in memory only)",
                new Object[] {policy.freshness(), policy.memory(), Long.toString(maxEntries)});
    }

    /** Never throws. */
    public AccessDecision check(String app, Session session) {
        AccessDecision decision;
        try {
            decision = decide(app, session.personId());
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "gate: access decision for " + app + " failed; answering 503", e);
            decision = AccessDecision.unavailable("gate error: " + e);
        }
        AccessDecision counted = decision;
        quietly(() -> metrics.decided(counted));
        return decision;
    }

    /** The control plane's push: drops every copy of the app; older answers are never used again. Returns how many. */
    public int sharingChanged(String app, long sharingVersion) {
        int dropped = memory.sharingChanged(app, sharingVersion);
        log.log(Level.INFO, "gate: sharing of {0} changed (version {1}); dropped {2} remembered answers",
                new Object[] {app, Long.toString(sharingVersion), dropped});
        return dropped;
    }

    /**
     * A change pulled from the feed: applied like a push unless the gate already knows {@code app} at
     * that version or newer; re-applying would drop people the API allowed after the change.
     */
    public int pulledChange(String app, long sharingVersion) {
        return memory.newestVersion(app) >= sharingVersion ? 0 : sharingChanged(app, sharingVersion);
    }

    public void forgetAll() {
        memory.forgetAll();
    }

    /** May throw; {@link #check} turns that into 503. Copies count only as {@link SyncState} allows. */
    AccessDecision decide(String app, long personId) {
        long before = clock.millis();
        Optional<AccessDecision> fresh = sync.inTouchNow()
                ? policy.withoutAsking(memory.recall(app, personId).orElse(null), before)
                : Optional.empty();
        if (fresh.isPresent()) {
            log.log(Level.FINE, "gate: {0} on {1}: {2} from a fresh copy",
                    new Object[] {personId, app, fresh.get().verdict()});
            return fresh.get();
        }
        AccessOutcome outcome = ask(app, personId, before);
        AccessCopy remembered = null;
        boolean trusted = true;
        if (outcome instanceof AccessOutcome.Answered answered) {
            sync.answered();
            AccessAnswer answer = answered.answer();
            boolean kept = memory.learn(app, personId, answer, before);
            if (!kept && (answer.kind() == AccessAnswer.Kind.ALLOW || answer.kind() == AccessAnswer.Kind.DENY)) {
                // Asked before a sharing change the gate already heard of: used once, never remembered.
                log.log(Level.FINE, "gate: {0} on {1}: an answer of sharing version {2} is older than {3}; not remembered",
                        new Object[] {personId, app, answer.sharingVersion(), memory.newestVersion(app)});
            }
        } else {
            // Recall again: a push may have cleared the memory while the question was out.
            remembered = memory.recall(app, personId).orElse(null);
            if (outcome instanceof AccessOutcome.Failed failed && FailureClass.of(failed.failure()) == FailureClass.CONTROL_PLANE) {
                sync.failed();
                trusted = sync.trustsCopies();
                if (!trusted && sync.firstDistrust()) {
                    log.log(Level.WARNING, "gate: the control plane fails and remembered access answers are not used: {0}",
                            sync.why());
                }
            }
        }
        AccessDecision decision = policy.decide(outcome, remembered, clock.millis(), trusted);
        note(app, personId, outcome, decision);
        return decision;
    }

    private AccessOutcome ask(String app, long personId, long nowMs) {
        if (health.failing() || (health.inDoubt() && copyStandsIn(app, personId, nowMs))) {
            return new AccessOutcome.Failed(new ControlPlaneUnavailable(health.notAsked()));
        }
        long start = System.nanoTime();
        AccessOutcome outcome;
        boolean reachedTheApi = true;
        try {
            outcome = new AccessOutcome.Answered(ControlPlaneHealth.call(health, () -> client.ask(app, personId)));
        } catch (ControlPlaneUnavailable | RuntimeException e) {
            reachedTheApi = !(e instanceof BulkheadException);
            if (Thread.interrupted()) {
                log.log(Level.FINE, "gate: cleared the interrupt a timeout left on this thread");
            }
            outcome = new AccessOutcome.Failed(e);
        }
        if (reachedTheApi) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            boolean gotAnswer = outcome instanceof AccessOutcome.Answered;
            quietly(() -> metrics.called(elapsed, gotAnswer));
        }
        return outcome;
    }

    private boolean copyStandsIn(String app, long personId, long nowMs) {
        return sync.trustsCopies() && memory.recall(app, personId).filter(c -> c.youngerThan(policy.memory(), nowMs)).isPresent();
    }

    private void note(String app, long personId, AccessOutcome outcome, AccessDecision decision) {
        if (outcome instanceof AccessOutcome.Failed failed) {
            Throwable failure = failed.failure();
            if (FailureClass.of(failure) == FailureClass.GATE) {
                log.log(Level.WARNING, "gate: asking about access to " + app + " failed inside the gate", failure);
                return;
            }
            if (failing.compareAndSet(false, true)) {
                log.log(Level.INFO, "gate: the control plane stopped answering access questions: {0}", failure.toString());
            }
            if (decision.source() == AccessDecision.Source.OUTAGE_COPY && decision.allowed()) {
                logCopyUse(app, failure);
            } else {
                log.log(Level.FINE, "gate: {0} on {1} during a control-plane failure: {2}",
                        new Object[] {personId, app, decision.basis()});
            }
            return;
        }
        if (failing.compareAndSet(true, false)) {
            log.log(Level.INFO, "gate: the control plane answers access questions again");
        }
    }

    /** At most once per {@link #COPY_LOG_INTERVAL} per app. */
    private void logCopyUse(String app, Throwable failure) {
        long now = clock.millis();
        if (copyLogged.size() > 10_000) {
            copyLogged.clear(); // one entry per app of the cell; a safety bound, not a cache
        }
        boolean[] first = {false};
        copyLogged.compute(app, (key, last) -> {
            if (last == null || now - last >= COPY_LOG_INTERVAL.toMillis() || now < last) {
                first[0] = true;
                return now;
            }
            return last;
        });
        if (first[0]) {
            log.log(Level.INFO, "gate: letting people into {0} from the remembered copy while the control plane "
                    + "fails ({1}); each copy lasts {2} from the API''s last allow",
                    new Object[] {app, failure.toString(), policy.memory()});
        }
    }

    /** Metrics never change a decision. */
    private void quietly(Runnable metric) {
        try {
            metric.run();
        } catch (RuntimeException e) {
            log.log(Level.FINE, "gate: an access metric failed: {0}", e.toString());
        }
    }

    private static Duration duration(String property, String value) {
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalStateException(property + " must be an ISO-8601 duration like PT30M: " + value, e);
        }
    }
}
