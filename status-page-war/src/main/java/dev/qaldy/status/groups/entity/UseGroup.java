package dev.qaldy.status.groups.entity;

import static dev.qaldy.status.probes.entity.ComponentKind.BUILDER;
import static dev.qaldy.status.probes.entity.ComponentKind.CONTROL;
import static dev.qaldy.status.probes.entity.ComponentKind.DATABASE;
import static dev.qaldy.status.probes.entity.ComponentKind.GATE;
import static dev.qaldy.status.probes.entity.ComponentKind.RUNTIME;
import static dev.qaldy.status.probes.entity.ComponentKind.SCHEDULER;

import dev.qaldy.status.probes.entity.ComponentKind;
import java.util.Set;

/**
 * The ways people use the platform, as the page shows them, each with the parts of a cell it
 * needs. The map is the seed's table "When the control plane is down": apps already opened need
 * the gate and the runtime host but not the control plane (the gate remembers access, the runtime
 * host the code); sign-in and builds stop without the control plane; the console still loads
 * from the gate, webhook deliveries are queued at the gate (issue 17) and schedules catch up
 * afterwards, so without the control plane they are partly down.
 */
public enum UseGroup {
    APPS("apps", "Apps (already opened)", "Using an app you have opened before: its pages and its data.",
            Set.of(GATE, RUNTIME), Set.of()),
    SIGN_IN("sign-in", "Sign-in and first opening", "Signing in, and opening an app for the first time.",
            Set.of(GATE, CONTROL, DATABASE), Set.of()),
    CONSOLE("console", "Console and changes", "The console, and every change: apps, versions, sharing, settings.",
            Set.of(GATE), Set.of(CONTROL, DATABASE)),
    BUILDS("builds", "Builds", "Uploading a new version of an app and building it.",
            Set.of(GATE, CONTROL, DATABASE, BUILDER), Set.of()),
    WEBHOOKS("webhooks", "Webhooks", "Deliveries to your apps' webhooks and the jobs they start; without the control plane the gate "
            + "checks and keeps them, and they run once it is back.",
            Set.of(GATE, RUNTIME), Set.of(CONTROL, DATABASE)),
    SCHEDULES("schedules", "Schedules", "Jobs that run on a schedule; a missed run catches up once it can.",
            Set.of(SCHEDULER, RUNTIME), Set.of(CONTROL, DATABASE));

    private final String key;
    private final String title;
    private final String covers;
    private final Set<ComponentKind> needs;
    private final Set<ComponentKind> partlyNeeds;

    UseGroup(String key, String title, String covers, Set<ComponentKind> needs, Set<ComponentKind> partlyNeeds) {
        this.key = key;
        this.title = title;
        this.covers = covers;
        this.needs = needs;
        this.partlyNeeds = partlyNeeds;
    }

    /** The id in JSON and the page's {@code data-group}, e.g. {@code sign-in}. */
    public String key() {
        return key;
    }

    /** The name people read, e.g. "Apps (already opened)". */
    public String title() {
        return title;
    }

    /** What it covers, in one plain sentence. */
    public String covers() {
        return covers;
    }

    /** Kinds whose outage stops it. */
    public Set<ComponentKind> needs() {
        return needs;
    }

    /** Kinds whose outage leaves part of it working (a partial outage). */
    public Set<ComponentKind> partlyNeeds() {
        return partlyNeeds;
    }

    /** True when it relies on {@code kind} at all. */
    public boolean reliesOn(ComponentKind kind) {
        return needs.contains(kind) || partlyNeeds.contains(kind);
    }
}
