package dev.qaldy.status.incidents.entity;

/** Who opened an incident. */
public enum Origin {
    /** The status page, because a component stayed down past {@code qaldy.status.incident-after}. */
    AUTOMATIC,
    /** A signed-in operator. */
    OPERATOR
}
