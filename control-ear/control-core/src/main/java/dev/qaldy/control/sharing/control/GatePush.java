package dev.qaldy.control.sharing.control;

import dev.qaldy.control.platform.control.CellPush.Delivery;
import dev.qaldy.control.platform.control.CellBroadcast;
import dev.qaldy.control.sharing.entity.SharingChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes sure no gate lets a revoked person in from a copy once the API has answered a sharing
 * change (issue 3). After the change is committed and before the API answers it:
 * <ol>
 * <li>pushes {@code POST /.qaldy/internal/sharing-versions} {@code {"app","sharingVersion","sequence"}}
 * to every gate through {@link CellBroadcast};
 * <li>for each gate that did not acknowledge (hung, paused, timed out, answered non-204), waits
 * until it has pulled the change from the sharing-changes feed ({@link GateCursors}), at most
 * {@code qaldy.control.gate-sync-max-gap} (default 10 s, the gates' {@code qaldy.gate.sync-max-gap})
 * counted from the commit. A gate that neither acknowledged nor pulled by then had not synced for
 * longer than that bound when it next meets a failing control plane, so by its own rule it trusts
 * no copy (503) until it syncs again; it is logged by name;
 * <li>a gate that refused the connection is not running: a gate that starts remembers nothing.
 * </ol>
 * The API's answer codes do not change; an answer may take up to the bound while a gate is hung.
 */
@ApplicationScoped
public class GatePush {

    /** The gate's internal path for sharing pushes. */
    static final String PATH = "/.qaldy/internal/sharing-versions";

    @Inject
    CellBroadcast broadcast;

    @Inject
    GateCursors cursors;

    @Inject
    Logger log;

    /** The longest wait for a gate the push did not reach; must not be less than the gates' {@code qaldy.gate.sync-max-gap}. */
    @Inject
    @ConfigProperty(name = "qaldy.control.gate-sync-max-gap", defaultValue = "PT10S")
    Duration maxGap;

    /** Runs after a successful commit, in the thread that answers the change. */
    void push(@Observes(during = TransactionPhase.AFTER_SUCCESS) SharingChanged change) {
        long deadline = System.nanoTime() + maxGap.toNanos();
        String what = "sharing version " + change.sharingVersion() + " of " + change.app() + " (change " + change.sequence() + ")";
        String body = "{\"app\":\"" + change.app() + "\",\"sharingVersion\":" + change.sharingVersion()
                + ",\"sequence\":" + change.sequence() + "}";
        Map<String, Delivery> deliveries = broadcast.toGates(PATH, body, what);
        List<String> unacknowledged = deliveries.entrySet().stream()
                .filter(e -> e.getValue() == Delivery.NOT_ACKNOWLEDGED).map(Map.Entry::getKey).sorted().toList();
        if (unacknowledged.isEmpty()) {
            return;
        }
        try {
            Set<String> behind = cursors.awaitPast(unacknowledged, change.sequence(), deadline);
            if (behind.isEmpty()) {
                log.log(Level.INFO, "gates {0} missed the push of {1} but pulled it before the API answered",
                        new Object[] {unacknowledged, what});
            } else {
                log.log(Level.WARNING, "gates {0} neither took the push of {1} nor pulled it within {2}: they were not "
                        + "reached, and by their own rule trust no remembered access answer until they sync again",
                        new Object[] {behind, what, maxGap});
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.log(Level.WARNING, "interrupted while waiting for gates {0} to pull {1}", new Object[] {unacknowledged, what});
        }
    }
}
