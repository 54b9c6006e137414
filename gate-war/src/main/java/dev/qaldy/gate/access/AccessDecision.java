package dev.qaldy.gate.access;

import java.util.Objects;

/**
 * What the gate does with one request: only {@link Verdict#ALLOW} is forwarded.
 *
 * @param verdict what happens
 * @param basis   why, for logs (and later for the response header that marks copy-based access)
 */
public record AccessDecision(Verdict verdict, String basis) {

    /** The possible verdicts. */
    public enum Verdict {
        /** Forward to the runtime host. */
        ALLOW,
        /** 403 "You don't have access to this app". */
        DENY,
        /** 404: the control plane knows no such app. */
        UNKNOWN_APP,
        /** 503 "Temporarily unavailable", Retry-After: never a 403 for someone the gate could not ask about. */
        UNAVAILABLE
    }

    public AccessDecision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(basis, "basis");
    }

    public boolean allowed() {
        return verdict == Verdict.ALLOW;
    }

    static AccessDecision unavailable(String basis) {
        return new AccessDecision(Verdict.UNAVAILABLE, basis);
    }
}
