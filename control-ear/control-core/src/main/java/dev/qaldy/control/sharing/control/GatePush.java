package dev.qaldy.control.sharing.control;

import dev.qaldy.control.platform.control.GateBroadcast;
import dev.qaldy.control.sharing.entity.SharingChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

/**
 * Pushes an app's new sharing version to every gate of the cell after the change is committed and
 * before the API answers it, so no gate lets a revoked person in from a copy: each gate receives
 * {@code POST /.qaldy/internal/sharing-versions} {@code {"app","sharingVersion"}} through
 * {@link GateBroadcast}. A gate that cannot be reached is logged: it has asked again within its
 * freshness window (30 s) anyway, and a restarted gate remembers nothing.
 */
@ApplicationScoped
public class GatePush {

    /** The gate's internal path for sharing pushes. */
    static final String PATH = "/.qaldy/internal/sharing-versions";

    @Inject
    GateBroadcast gates;

    /** Runs after a successful commit, in the thread that answers the change. */
    void push(@Observes(during = TransactionPhase.AFTER_SUCCESS) SharingChanged change) {
        String body = "{\"app\":\"" + change.app() + "\",\"sharingVersion\":" + change.sharingVersion() + "}";
        gates.post(PATH, body, "sharing version " + change.sharingVersion() + " of " + change.app());
    }
}
