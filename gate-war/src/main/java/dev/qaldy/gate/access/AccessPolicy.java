package dev.qaldy.gate.access;

import dev.qaldy.gate.access.AccessDecision.Source;
import dev.qaldy.gate.access.AccessDecision.Verdict;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The access rule as plain functions of (copy, what asking gave, now). This is where the seed's
 * "Apps people already opened" row lives:
 * <ul>
 * <li>a copy younger than the freshness window is used without asking, allow and deny alike;
 * <li>otherwise the control plane's answer decides: allow, deny, unknown app (404); an unusable
 * answer (another 4xx, an unreadable 2xx) is 503 and never falls back on the copy;
 * <li>only on a control-plane failure ({@link FailureClass#CONTROL_PLANE}: connection refused or
 * reset, timeout, 5xx, and the question not asked while the gate's view says the control plane is
 * failing and the full bulkhead that follow from them) a remembered
 * allow younger than the access memory (30 minutes, counted from the API's last allow) lets the
 * person in; a remembered deny stays a 403; nothing remembered is 503 "Temporarily unavailable",
 * never a 403 for someone the gate never saw; but only when the gate was in touch with the control
 * plane's sharing changes right up to the failure ({@link SyncState#trustsCopies}), else 503 whatever
 * is remembered;
 * <li>a gate error is 503 whatever is remembered.
 * </ul>
 * Nothing but an allow (answered, or remembered under these rules) ever allows, and no input makes
 * it throw.
 */
public final class AccessPolicy {

    private final Duration freshness;
    private final Duration memory;

    /**
     * @param freshness how long a copy is used without asking (default 30 s)
     * @param memory    how long a remembered allow may stand in for a failing control plane (default 30 min)
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

    /** The decision a fresh copy gives without asking; empty when there is none and the API must be asked. */
    public Optional<AccessDecision> withoutAsking(AccessCopy copy, long nowMs) {
        if (copy == null || !copy.youngerThan(freshness, nowMs) || !copy.youngerThan(memory, nowMs)) {
            return Optional.empty();
        }
        return Optional.of(copy.allows()
                ? new AccessDecision(Verdict.ALLOW, Source.FRESH_COPY, "fresh copy of an allow", copy.accountId())
                : new AccessDecision(Verdict.DENY, Source.FRESH_COPY, "fresh copy of a deny"));
    }

    /** Decides after asking, for a gate in touch with the sharing changes: {@link #decide(AccessOutcome, AccessCopy, long, boolean)} with true. */
    public AccessDecision decide(AccessOutcome outcome, AccessCopy remembered, long nowMs) {
        return decide(outcome, remembered, nowMs, true);
    }

    /**
     * Decides after asking.
     *
     * @param outcome       what asking gave
     * @param remembered    the copy the memory still holds for this person after asking (null for none)
     * @param nowMs         the clock now
     * @param copiesTrusted false when the gate was not in touch with the sharing changes up to the
     *                      failure ({@link SyncState#trustsCopies}): no copy, allow or deny, stands in
     *                      for the control plane (503)
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
                            : AccessDecision.unavailable("control plane failure, copies not trusted (this gate was out of touch "
                                    + "with the sharing changes): " + failed.failure());
                    case GATE -> AccessDecision.unavailable("gate error: " + failed.failure());
                };
            }
            return AccessDecision.unavailable("no outcome");
        } catch (RuntimeException e) {
            return AccessDecision.unavailable("policy error: " + e);
        }
    }

    /** A control-plane failure: the copy, if young enough, else 503. */
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
