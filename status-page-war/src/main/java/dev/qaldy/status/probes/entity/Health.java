package dev.qaldy.status.probes.entity;

/** What one probe says about one component. */
public enum Health {
    /** It answered its readiness check with HTTP 200 and status UP (or its named check is UP). */
    UP,
    /** It did not answer, or answered anything but a ready UP. */
    DOWN,
    /** It could not be checked: the control plane that reports it did not answer, or reports nothing. */
    UNKNOWN
}
