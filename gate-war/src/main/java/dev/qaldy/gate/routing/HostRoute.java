package dev.qaldy.gate.routing;

/** What a Host header names: the public origin, one app's origin, or nothing the gate serves. */
public sealed interface HostRoute {

    /** The public origin ({@code localhost[:port]}): the console, the API, later the webhooks. */
    record Public() implements HostRoute {
    }

    /** An app's own origin ({@code <app>.localhost[:port]}); {@code name} is a lower-case DNS label. */
    record App(String name) implements HostRoute {
    }

    /** Anything else; {@code reason} is for the log only. Never forwarded anywhere. */
    record Bad(String reason) implements HostRoute {
    }
}
