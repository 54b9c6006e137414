package dev.qaldy.gate.access;

import dev.qaldy.gate.access.AccessDecision.Source;
import dev.qaldy.gate.access.AccessDecision.Verdict;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The access rule as plain functions of (copy, what asking gave, now): the seed's "Apps people
 * already opened" row.
 * <ul>
 * <li>a copy younger than the freshness window is used without asking, allow and deny alike;
 * <li>else the control plane's answer decides; an unusable answer is 503, never the copy;
 * <li>only on a control-plane failure ({@link FailureClass#CONTROL_PLANE}), and only when
 * {@link SyncState#trustsCopies}, a remembered allow younger than the access memory lets the person
 * in and a remembered deny stays 403; nothing remembered is 503, never a 403;
 * <li>a gate error is 503.
 * </ul>
 * Nothing but an allow ever allows, and no input makes it throw.
 */
public final class AccessPolicy {

    private final Duration freshness;
    private final Duration memory;

    /**
     * @param freshness how long a copy is used without asking (default 30 s)
     * @param memory    how long a remembered answer may stand in for a failing control plane (seed: 30 min)
     */
    public AccessPolicy(Duration freshness, Duration memory) {
        this.freshness = Objects.requireNonNull(freshness, "freshness");
        this.memory = Objects.requireNonNull(memory, "memory");
        if (freshness.isNegative() || memory.isNegative() || memory.isZero()) {
            throw new IllegalArgumentException("freshness must be >= 0 and memory > 0: " + freshness + ", " + memory);
        }
    }

    public Duration freshness() {
        return freshness;
    }

    public Duration memory() {
        return memory;
    }

    /** Empty when the API must be asked. */
    public Optional<AccessDecision> withoutAsking(AccessCopy copy, long nowMs) {
        if (copy == null || !copy.youngerThan(freshness, nowMs) || !copy.youngerThan(memory, nowMs)) {
            return Optional.empty();
        }
        return Optional.of(copy.allows()
                ? new AccessDecision(Verdict.ALLOW, Source.FRESH_COPY, "fresh copy of an allow", copy.accountId())
                : new AccessDecision(Verdict.DENY, Source.FRESH_COPY, "fresh copy of a deny"));
    }

    /** For a gate in touch with the sharing changes. */
    public AccessDecision decide(AccessOutcome outcome, AccessCopy remembered, long nowMs) {
        return decide(outcome, remembered, nowMs, true);
    }

    /**
     * @param remembered    the copy still held after asking; null for none
     * @param copiesTrusted {@link SyncState#trustsCopies}; false: no copy stands in (503)
     */
    public AccessDecision decide(AccessOutcome outcome, AccessCopy remembered, long nowMs, boolean copiesTrusted) {
        try {
            if (outcome instanceof AccessOutcome.Answered answered && answered.answer() != null) {
                AccessAnswer answer = answered.answer();
                return switch (answer.kind()) {
                    case ALLOW -> new AccessDecision(Verdict.ALLOW, Source.ASKED, "control plane allowed", answer.accountId());
                    case DENY -> new AccessDecision(Verdict.DENY, Source.ASKED, "control plane denied");
                    case UNKNOWN_APP -> new AccessDecision(Verdict.UNKNOWN_APP, Source.ASKED, "control plane knows no such app");
                    case UNUSABLE -> AccessDecision.unavailable("unusable answer: " + answer.detail());
                };
            }
            if (outcome instanceof AccessOutcome.Failed failed) {
                return switch (FailureClass.of(failed.failure())) {
                    case CONTROL_PLANE -> copiesTrusted ? fromCopy(remembered, nowMs, failed.failure())
                            : AccessDecision.outOfTouch("control plane failure, copies not trusted (this gate is out of touch "
                                    + "with the sharing changes, or cut off alone from the control plane): " + failed.failure());
                    case GATE -> AccessDecision.unavailable("gate error: " + failed.failure());
                };
            }
            return AccessDecision.unavailable("no outcome");
        } catch (RuntimeException e) {
            return AccessDecision.unavailable("policy error: " + e);
        }
    }

    private AccessDecision fromCopy(AccessCopy remembered, long nowMs, Throwable failure) {
        if (remembered == null || !remembered.youngerThan(memory, nowMs)) {
            return AccessDecision.unavailable("control plane failure, nothing remembered: " + failure);
        }
        if (remembered.allows()) {
            return new AccessDecision(Verdict.ALLOW, Source.OUTAGE_COPY, "control plane failure, remembered allow: " + failure,
                    remembered.accountId());
        }
        return new AccessDecision(Verdict.DENY, Source.OUTAGE_COPY, "control plane failure, remembered deny: " + failure);
    }
}
