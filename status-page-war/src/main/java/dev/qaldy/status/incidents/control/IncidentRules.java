package dev.qaldy.status.incidents.control;

import dev.qaldy.status.incidents.entity.Incident;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentState;
import dev.qaldy.status.probes.entity.Health;
import java.time.Duration;
import java.util.Locale;

/**
 * When the status page opens or resolves an incident by itself, and what it writes.
 * <ul>
 * <li>Open: the component has been down without a break for at least {@code incidentAfter}
 * (since its first failing probe), no automatic incident of it is open, and none was ever opened
 * for this same down run (so an operator who resolved it by hand is not overruled).</li>
 * <li>Never while it is starting (not up once since the status page began watching it): a new
 * cell opens without a start-up incident.</li>
 * <li>Resolve: its automatic incident is open and the latest probe found it up.</li>
 * <li>Nothing, while the status page has no fresh probe of it (older than {@code staleAfter}) or
 * it is unknown: not knowing is neither an outage nor a recovery.</li>
 * </ul>
 */
public final class IncidentRules {

    /** What to do for one component after one round. */
    public enum Action { NONE, OPEN, RESOLVE }

    private IncidentRules() {
    }

    /**
     * The action for a component in {@code state} (or {@code null}: never probed) at {@code nowMs},
     * given its latest automatic incident ({@code null}: none ever).
     */
    public static Action decide(ComponentState state, Incident latestAutomatic, long nowMs,
            Duration incidentAfter, Duration staleAfter) {
        if (state == null || !state.fresh(nowMs, staleAfter)) {
            return Action.NONE;
        }
        boolean open = latestAutomatic != null && latestAutomatic.open();
        if (state.health() == Health.UP) {
            return open ? Action.RESOLVE : Action.NONE;
        }
        if (state.health() == Health.DOWN && !open && !state.starting()
                && nowMs - state.sinceMs() >= incidentAfter.toMillis()
                && (latestAutomatic == null || latestAutomatic.episodeSinceMs() == null
                        || latestAutomatic.episodeSinceMs() != state.sinceMs())) {
            return Action.OPEN;
        }
        return Action.NONE;
    }

    /**
     * The title of an automatic incident: "Control plane unreachable" when the component did not
     * answer at all, "… not ready" when it answered but not ready, "… down" when the control plane
     * reports it down; with "in cell X" when the page watches several cells.
     */
    public static String title(Component component, ComponentState state, boolean severalCells) {
        String what = switch (state.reason()) {
            case NO_ANSWER -> "unreachable";
            case NOT_READY -> "not ready";
            default -> "down";
        };
        return component.name() + " " + what + (severalCells ? " in cell " + component.cell() : "");
    }

    /** The first message of an automatic incident. */
    public static String openingMessage(Component component, ComponentState state, Duration incidentAfter) {
        return "The status page has found the " + lower(component) + " down for more than " + words(incidentAfter)
                + ". " + state.detail() + " We are looking into it.";
    }

    /** The message that resolves an automatic incident; {@code downSinceMs} is the incident's start. */
    public static String resolvingMessage(Component component, long downSinceMs, long upSinceMs) {
        return "The " + lower(component) + " is up again. It was down for "
                + words(Duration.ofMillis(Math.max(0, upSinceMs - downSinceMs))) + ".";
    }

    /** A duration in plain words, to the second: "45 seconds", "2 minutes 5 seconds", "1 hour 3 minutes". */
    public static String words(Duration duration) {
        long seconds = duration.toSeconds();
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        if (hours > 0) {
            return unit(hours, "hour") + (minutes > 0 ? " " + unit(minutes, "minute") : "");
        }
        if (minutes > 0) {
            return unit(minutes, "minute") + (rest > 0 ? " " + unit(rest, "second") : "");
        }
        return unit(rest, "second");
    }

    private static String unit(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    private static String lower(Component component) {
        return component.name().toLowerCase(Locale.ROOT);
    }
}
