package dev.qaldy.gate.access;

import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The access step of the hot path: ask through {@link AccessClient}, decide with
 * {@link AccessPolicy}. Fails closed: any exception on the way is a 503, never an allow.
 * Logs at INFO when the control plane stops and starts answering, not per request.
 */
@ApplicationScoped
public class AccessCheck {

    @Inject
    AccessClient client;

    @Inject
    Logger log;

    private final AccessPolicy policy = new AccessPolicy();
    private final AtomicBoolean failing = new AtomicBoolean();

    /** The decision for {@code session}'s person on {@code app}. */
    public AccessDecision check(String app, Session session) {
        try {
            AccessOutcome outcome = ask(app, session.personId());
            AccessDecision decision = policy.decide(outcome);
            note(app, outcome);
            log.log(Level.FINE, "gate: {0} on {1}: {2} ({3})",
                    new Object[] {session.personId(), app, decision.verdict(), decision.basis()});
            return decision;
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "gate: access decision for " + app + " failed; answering 503", e);
            return AccessDecision.unavailable("gate error: " + e);
        }
    }

    private AccessOutcome ask(String app, long personId) {
        try {
            return new AccessOutcome.Answered(client.ask(app, personId));
        } catch (ControlPlaneUnavailable | RuntimeException e) {
            if (Thread.interrupted()) {
                log.log(Level.FINE, "gate: cleared the interrupt a timeout left on this thread");
            }
            return new AccessOutcome.Failed(e);
        }
    }

    private void note(String app, AccessOutcome outcome) {
        if (outcome instanceof AccessOutcome.Failed failed) {
            FailureClass kind = FailureClass.of(failed.failure());
            if (kind == FailureClass.GATE) {
                log.log(Level.WARNING, "gate: asking about access to " + app + " failed inside the gate", failed.failure());
            } else if (failing.compareAndSet(false, true)) {
                log.log(Level.INFO, "gate: the control plane stopped answering access questions: {0}", failed.failure().toString());
            }
        } else if (failing.compareAndSet(true, false)) {
            log.log(Level.INFO, "gate: the control plane answers access questions again");
        }
    }
}
