package dev.qaldy.soak.history;

/** How the soak takes a component away, and how it brings it back. */
public enum FaultKind {
    /** SIGKILL, later {@code bin/qaldy start}. */
    KILL("killed (SIGKILL), then started"),
    /** SIGSTOP, later SIGCONT: a hung process, its sockets open. */
    PAUSE("hung (SIGSTOP), then resumed (SIGCONT)"),
    /** {@code bin/qaldy stop} (graceful), later {@code bin/qaldy start}. */
    STOP("stopped gracefully, then started"),
    /** {@code bin/qaldy stop} and at once {@code bin/qaldy start}: a deploy or a crash loop's restart. */
    RESTART("restarted (stopped gracefully and started at once)"),
    /**
     * On a cell of many hosts ({@code bin/qaldy up --hosts}), {@code bin/qaldy partition}, later
     * {@code bin/qaldy heal}: a control plane cut off from every edge component, or an edge component
     * cut off from every control plane; packets lost, nothing refused, the process up throughout.
     */
    CUT("cut off by a silent partition, then healed");

    /** Whether the component's process ends (what it held only in memory is gone): killed, stopped or restarted. */
    public boolean restarts() {
        return this == KILL || this == STOP || this == RESTART;
    }

    /** How the report says it. */
    public final String said;

    FaultKind(String said) {
        this.said = said;
    }
}
