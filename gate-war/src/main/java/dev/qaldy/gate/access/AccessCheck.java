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
 * The access step of the hot path, in order: a fresh copy → use it; else ask through
 * {@link AccessClient} and let the answer replace the copy; on a control-plane failure decide
 * from what {@link AccessMemory} still holds; {@link AccessPolicy} decides every case.
 * Fails closed: any exception on the way is a 503, never an allow. While the gate's view of the
 * control plane says failing ({@link ControlPlaneHealth}, issue 14), the API is not asked: that is
 * a control-plane failure at once, so a person on the copy never waits for a timeout; while it is in
 * doubt (a call or the heartbeat just got no answer), a person with a copy is not asked for either.
 *
 * <p>Logs at INFO when the control plane stops and starts answering access questions, and when a
 * copy first lets people into an app during a failure (at most once a minute per app); FINE for the
 * expected misses.
 */
@ApplicationScoped
public class AccessCheck {

    /** How often the use of copies during a failure is logged per app. */
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

    /** How long a remembered answer is used without asking. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-freshness", defaultValue = "PT30S")
    String freshness;

    /** How long a remembered allow may stand in for a failing control plane (seed: 30 minutes). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory", defaultValue = "PT30M")
    String memoryAge;

    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory-max-entries", defaultValue = "1000000")
    long maxEntries;

    /** Most apps whose newest sharing version is kept (issue 3: bounded; an evicted app's copies go with it). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.access-memory-max-apps", defaultValue = "100000")
    long maxApps = AccessMemory.DEFAULT_MAX_APPS;

    AccessPolicy policy;
    AccessMemory memory;
    /** Whether this gate was in touch with the sharing changes (issue 3); from {@link GateSync} unless a test set it. */
    SyncState sync;
    /** The gate's view of the control plane; from {@link ControlPlaneHealth} unless a test set it. */
    UpstreamHealth health;

    private final AtomicBoolean failing = new AtomicBoolean();
    private final Map<String, Long> copyLogged = new ConcurrentHashMap<>();

    /** Creates the bean when the application starts, so the memory's state is in the log at once. */
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

    /** The decision for {@code session}'s person on {@code app}; never throws. */
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

    /**
     * The control plane's push: {@code app}'s sharing changed to {@code sharingVersion}. Every copy
     * of the app is dropped at once, and answers older than that version are never used again.
     *
     * @return how many copies were dropped
     */
    public int sharingChanged(String app, long sharingVersion) {
        int dropped = memory.sharingChanged(app, sharingVersion);
        log.log(Level.INFO, "gate: sharing of {0} changed (version {1}); dropped {2} remembered answers",
                new Object[] {app, Long.toString(sharingVersion), dropped});
        return dropped;
    }

    /**
     * A change pulled from the sharing-changes feed: applied like a push ({@link #sharingChanged})
     * unless this gate already knows {@code app} at {@code sharingVersion} or newer (from the push,
     * or an answer of that version). Then copies older than it are never used already, and the
     * copies learned since, of that version or newer, stay: re-applying would drop people the API
     * allowed after the change, a moment before an outage.
     *
     * @return how many copies were dropped
     */
    public int pulledChange(String app, long sharingVersion) {
        return memory.newestVersion(app) >= sharingVersion ? 0 : sharingChanged(app, sharingVersion);
    }

    /** Drops every remembered answer (a gap in the sharing-changes feed). */
    public void forgetAll() {
        memory.forgetAll();
    }

    /**
     * The steps; may throw, {@link #check} turns that into 503. A fresh copy is used without asking
     * only while the gate is in touch with the sharing changes now, and a copy stands in for a
     * failing control plane only when the gate was in touch right up to the failure
     * ({@link SyncState}).
     */
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
            // What the memory holds now: a push may have cleared it while the question was out.
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

    /**
     * Asks the control plane, unless the gate's view of it says failing, or says it is in doubt and
     * this person has a copy the policy would stand in with (issue 14: nobody on a copy waits for a
     * control plane that just left a call or the heartbeat without an answer).
     */
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

    /** True when a failure now would let a remembered answer decide for this person (not a 503). */
    private boolean copyStandsIn(String app, long personId, long nowMs) {
        return sync.trustsCopies() && memory.recall(app, personId).filter(c -> c.youngerThan(policy.memory(), nowMs)).isPresent();
    }

    /** Logs state changes, not requests. */
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

    /** INFO the first time a copy lets someone into {@code app} during a failure, then at most once a minute. */
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
