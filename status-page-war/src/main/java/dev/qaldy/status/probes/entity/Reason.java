package dev.qaldy.status.probes.entity;

/** Why a probe ended as it did; it chooses an incident's title ("unreachable" or "not ready"). */
public enum Reason {
    /** Ready. */
    READY,
    /** No HTTP answer at all: connection refused or reset, or no answer within the probe timeout. */
    NO_ANSWER,
    /** An HTTP answer that is not a ready UP (e.g. HTTP 503 with DOWN checks, or HTTP 404). */
    NOT_READY,
    /** The control plane's readiness names this component's check as DOWN. */
    CHECK_DOWN,
    /** The control plane did not answer, so a component it reports on cannot be checked. */
    REPORTER_DOWN,
    /** The control plane answered but its readiness has no check for this component. */
    NOT_REPORTED
}
