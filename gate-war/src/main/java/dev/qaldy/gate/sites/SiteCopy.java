package dev.qaldy.gate.sites;

import java.time.Duration;

/**
 * One remembered visibility answer; its age counts from when the gate asked.
 *
 * @param answeredAtMs when the gate asked the question this answers, epoch ms of the injected clock
 */
public record SiteCopy(boolean isPublic, long sharingVersion, long accountId, long answeredAtMs) {

    /** A copy from the future (the clock was set back) is never young: fail closed. */
    public boolean youngerThan(Duration age, long nowMs) {
        long elapsed = nowMs - answeredAtMs;
        return elapsed >= 0 && elapsed < age.toMillis();
    }
}
