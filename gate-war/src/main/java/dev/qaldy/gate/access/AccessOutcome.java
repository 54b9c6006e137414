package dev.qaldy.gate.access;

/** What asking the control plane gave: an answer, or the way it failed. */
public sealed interface AccessOutcome {

    /** The control plane answered (allow, deny, unknown app, or something unusable). */
    record Answered(AccessAnswer answer) implements AccessOutcome {
    }

    /** Asking failed; {@link FailureClass#of} tells a control-plane failure from a gate error. */
    record Failed(Throwable failure) implements AccessOutcome {
    }
}
