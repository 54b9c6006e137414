package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookMaterial;
import dev.qaldy.contract.hooks.HookSignature;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the gate does with a delivery it checks itself while the API cannot be asked (issue 17):
 * the control plane's rule ({@link HookSignature}, the same tolerance), with one difference: a hook
 * it never learned is not refused (it cannot tell a real hook from a probe) but answered 503.
 */
public final class EdgeCheck {

    /** The answer's kind. */
    public enum Outcome {
        /** Signed right: queue it, then 202. */
        QUEUE,
        /** Signed wrong, missing, malformed or out of the tolerance: 401 as the API would. */
        REFUSE,
        /** Never learned (or deleted as far as this gate knows): 503 with Retry-After, never 404 or 202. */
        UNKNOWN
    }

    /** @param verdict null for {@link Outcome#UNKNOWN} */
    public record Decision(Outcome outcome, HookSignature.Verdict verdict) {
    }

    private EdgeCheck() {
    }

    public static Decision decide(Optional<HookMaterial> hook, byte[] body, String signature, Instant now, Duration tolerance) {
        if (hook.isEmpty()) {
            return new Decision(Outcome.UNKNOWN, null);
        }
        HookSignature.Verdict verdict = HookSignature.check(hook.get().secretsAt(now.toEpochMilli()), body, signature, now, tolerance);
        return new Decision(verdict == HookSignature.Verdict.VALID ? Outcome.QUEUE : Outcome.REFUSE, verdict);
    }
}
