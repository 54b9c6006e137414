package dev.qaldy.gate.access;

import java.time.Duration;
import java.util.Objects;

/**
 * One remembered allow or deny for (app, person). Its age counts from when the gate asked, however
 * often it is read since.
 *
 * @param answeredAtMs when the gate asked the question this answers, epoch ms of the injected clock
 */
public record AccessCopy(AccessAnswer.Kind decision, long sharingVersion, long answeredAtMs, long accountId) {

    public AccessCopy {
        Objects.requireNonNull(decision, "decision");
        if (decision != AccessAnswer.Kind.ALLOW && decision != AccessAnswer.Kind.DENY) {
            throw new IllegalArgumentException("only allow and deny are remembered, not " + decision);
        }
    }

    public AccessCopy(AccessAnswer.Kind decision, long sharingVersion, long answeredAtMs) {
        this(decision, sharingVersion, answeredAtMs, AccessAnswer.NO_ACCOUNT);
    }

    public static AccessCopy of(AccessAnswer answer, long askedAtMs) {
        return new AccessCopy(answer.kind(), answer.sharingVersion(), askedAtMs, answer.accountId());
    }

    public boolean allows() {
        return decision == AccessAnswer.Kind.ALLOW;
    }

    /** A copy from the future (the clock was set back) is never young: fail closed. */
    public boolean youngerThan(Duration age, long nowMs) {
        long elapsed = nowMs - answeredAtMs;
        return elapsed >= 0 && elapsed < age.toMillis();
    }
}
