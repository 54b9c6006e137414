package dev.qaldy.gate.proxy;

/** Where the gate forwards to. */
public enum Upstream {
    /** The runtime host (app traffic): gets the person and the service token, never their credentials. */
    RUNTIME,
    /** The control plane (/api on the public origin): gets the caller's own credentials, never the service token. */
    CONTROL
}
