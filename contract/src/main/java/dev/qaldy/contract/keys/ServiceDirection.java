package dev.qaldy.contract.keys;

import java.util.Locale;

/**
 * Who may call whom inside a cell, one credential each (issue 16: one shared secret let the runtime
 * host, which runs tenants' code, act as the gate and the control plane). Each is a file
 * {@link #fileName()} of the keys folder ({@code qaldy.keys.dir}), presented in {@value #HEADER}.
 */
public enum ServiceDirection {

    /** Access, tickets, feeds, usage, the person-scoped data API. */
    GATE_TO_CONTROL("gate"),
    /** Live versions, bundles, cap states, usage, app data with a grant. */
    RUNTIME_TO_CONTROL("runtime"),
    /** Pushes: sharing changes, sign-outs, cap states. */
    CONTROL_TO_GATE("control"),
    /** Jobs: schedules, webhooks. */
    CONTROL_TO_RUNTIME("control"),
    GATE_TO_RUNTIME("gate"),
    /** An operator's scraper reading a gate's {@code /metrics}. */
    METRICS_TO_GATE("metrics");

    public static final String HEADER = "X-Qaldy-Service-Token";

    private final String caller;

    ServiceDirection(String caller) {
        this.caller = caller;
    }

    /** E.g. {@code gate-to-control}. */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** As usage reports and log lines name the sender. */
    public String caller() {
        return caller;
    }
}
