package dev.qaldy.gate.session;

import dev.qaldy.contract.session.Session;

/** The outcome of reading a request's credentials: a verified session, none, or a bad one. */
public sealed interface SessionCheck {

    /** A token that verified with the cell's public key and has not expired. */
    record Valid(Session session) implements SessionCheck {
    }

    /** No cookie and no Bearer token. */
    record Missing() implements SessionCheck {
    }

    /** A token was sent but is forged, foreign, expired or unreadable; {@code reason} is for logs only. */
    record Invalid(String reason) implements SessionCheck {
    }
}
