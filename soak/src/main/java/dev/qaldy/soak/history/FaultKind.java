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
    RESTART("restarted (stopped gracefully and started at once)");

    /** How the report says it. */
    public final String said;

    FaultKind(String said) {
        this.said = said;
    }
}
