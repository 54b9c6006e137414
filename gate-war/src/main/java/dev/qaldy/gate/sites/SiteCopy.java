package dev.qaldy.gate.sites;

import java.time.Duration;

/**
 * One remembered visibility answer for an app: public or not, the app's sharing version the
 * answer carried, the account it named, and when the gate asked (epoch ms, injected clock). Its
 * age always counts from that moment, however often it is read since.
 *
 * @param isPublic       the control plane said "public"
 * @param sharingVersion the app's sharing version in that answer
 * @param accountId      the account the answer named, or {@link VisibilityAnswer#NO_ACCOUNT}
 * @param answeredAtMs   when the gate asked the question this answers, epoch milliseconds
 */
public record SiteCopy(boolean isPublic, long sharingVersion, long accountId, long answeredAtMs) {

    /**
     * True when the copy is younger than {@code age} at {@code nowMs}; a copy from the future (the
     * clock was set back) is never young: the gate fails closed.
     */
    public boolean youngerThan(Duration age, long nowMs) {
        long elapsed = nowMs - answeredAtMs;
        return elapsed >= 0 && elapsed < age.toMillis();
    }
}
