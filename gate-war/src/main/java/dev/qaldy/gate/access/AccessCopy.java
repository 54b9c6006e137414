package dev.qaldy.gate.access;

import java.time.Duration;
import java.util.Objects;

/**
 * One remembered answer of the control plane for (app, person): allow or deny, the app's sharing
 * version the answer carried, and when the gate asked (epoch ms, from the injected clock). Its age
 * always counts from that moment, however often the copy is read since.
 *
 * @param decision       {@link AccessAnswer.Kind#ALLOW} or {@link AccessAnswer.Kind#DENY}, nothing else
 * @param sharingVersion the app's sharing version in that answer
 * @param answeredAtMs   when the gate asked the question this answers, epoch milliseconds
 * @param accountId      the account the answer named (the app's owner), or {@link AccessAnswer#NO_ACCOUNT}
 */
public record AccessCopy(AccessAnswer.Kind decision, long sharingVersion, long answeredAtMs, long accountId) {

    public AccessCopy {
        Objects.requireNonNull(decision, "decision");
        if (decision != AccessAnswer.Kind.ALLOW && decision != AccessAnswer.Kind.DENY) {
            throw new IllegalArgumentException("only allow and deny are remembered, not " + decision);
        }
    }

    /** A copy that names no account. */
    public AccessCopy(AccessAnswer.Kind decision, long sharingVersion, long answeredAtMs) {
        this(decision, sharingVersion, answeredAtMs, AccessAnswer.NO_ACCOUNT);
    }

    /** The copy of an allow or deny answer given for a question asked at {@code askedAtMs}. */
    public static AccessCopy of(AccessAnswer answer, long askedAtMs) {
        return new AccessCopy(answer.kind(), answer.sharingVersion(), askedAtMs, answer.accountId());
    }

    public boolean allows() {
        return decision == AccessAnswer.Kind.ALLOW;
    }

    /**
     * True when the copy is younger than {@code age} at {@code nowMs}. A copy from the future (the
     * clock was set back) has no age we can trust and is never young: the gate fails closed.
     */
    public boolean youngerThan(Duration age, long nowMs) {
        long elapsed = nowMs - answeredAtMs;
        return elapsed >= 0 && elapsed < age.toMillis();
    }
}
