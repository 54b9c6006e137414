package dev.qaldy.gate.shield;

/** What a request is headed for, as far as the shield cares. */
public sealed interface ShieldTarget {

    /** An app's origin ({@code <app>.localhost}): every path, sign-in ticket and sign-out included. */
    record App(String name) implements ShieldTarget {
    }

    /**
     * {@code /api/} on the public origin. A POST to a sign-in or sign-up path also takes a token from
     * a stricter per-client bucket (password guessing).
     */
    record Api() implements ShieldTarget {
    }
}
