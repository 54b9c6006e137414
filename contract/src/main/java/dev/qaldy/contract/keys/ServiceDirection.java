package dev.qaldy.contract.keys;

import java.util.Locale;

/**
 * Who may call whom inside a cell, one credential each (issue 16: one shared secret let the
 * runtime host, which runs tenants' code, act as the gate and as the control plane). Each is a
 * file of the keys folder ({@code qaldy.keys.dir}, {@code var/keys/} by default; {@code bin/qaldy}
 * creates them, mode 600, never in git) named {@link #fileName()}, presented in
 * {@value #HEADER}. A component reads only the files of the directions it sends or accepts.
 */
public enum ServiceDirection {

    /** The gate asking the control plane (access, tickets, feeds, usage, the person-scoped data API). */
    GATE_TO_CONTROL("gate"),
    /** The runtime host asking the control plane (live versions, bundles, cap states, its usage, app data with a grant). */
    RUNTIME_TO_CONTROL("runtime"),
    /** The control plane pushing to the gates (sharing changes, sign-outs, cap states). */
    CONTROL_TO_GATE("control"),
    /** The control plane sending jobs (schedules, webhooks) to the runtime host. */
    CONTROL_TO_RUNTIME("control"),
    /** The gate passing a person's request to the runtime host. */
    GATE_TO_RUNTIME("gate"),
    /** An operator's scraper reading a gate's {@code /metrics}. */
    METRICS_TO_GATE("metrics");

    /** The header every service call carries its credential in. */
    public static final String HEADER = "X-Qaldy-Service-Token";

    private final String caller;

    ServiceDirection(String caller) {
        this.caller = caller;
    }

    /** The file under the keys folder, e.g. {@code gate-to-control}. */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Who sends with this credential, as usage reports and log lines name it ({@code gate}, {@code runtime}, …). */
    public String caller() {
        return caller;
    }
}
