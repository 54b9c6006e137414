package dev.qaldy.gate.access;

/**
 * The access rule as a plain function of what asking gave. Today: the control plane's allow and
 * deny are final; an unknown app is 404; an unusable answer, a control-plane failure and a gate
 * error are all 503 (seed: a person the gate never saw gets "Temporarily unavailable", not a 403).
 * Nothing but an explicit allow answer ever allows. Issue 3 adds the remembered copy here.
 */
public final class AccessPolicy {

    /** Decides; never throws, and any input it cannot read is 503. */
    public AccessDecision decide(AccessOutcome outcome) {
        if (outcome instanceof AccessOutcome.Answered answered && answered.answer() != null) {
            AccessAnswer answer = answered.answer();
            return switch (answer.kind()) {
                case ALLOW -> new AccessDecision(AccessDecision.Verdict.ALLOW, "control plane allowed");
                case DENY -> new AccessDecision(AccessDecision.Verdict.DENY, "control plane denied");
                case UNKNOWN_APP -> new AccessDecision(AccessDecision.Verdict.UNKNOWN_APP, "control plane knows no such app");
                case UNUSABLE -> AccessDecision.unavailable("unusable answer: " + answer.detail());
            };
        }
        if (outcome instanceof AccessOutcome.Failed failed) {
            return switch (FailureClass.of(failed.failure())) {
                case CONTROL_PLANE -> AccessDecision.unavailable("control plane failure: " + failed.failure());
                case GATE -> AccessDecision.unavailable("gate error: " + failed.failure());
            };
        }
        return AccessDecision.unavailable("no outcome");
    }
}
