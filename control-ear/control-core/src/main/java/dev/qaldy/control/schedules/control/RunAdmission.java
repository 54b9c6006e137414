package dev.qaldy.control.schedules.control;

import dev.qaldy.control.billing.boundary.Billing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Whether an app's queued run may start now: the seam between the run queue and the spending cap.
 * The dispatcher asks before it claims a run; {@code false} parks the run in state
 * {@code waiting-for-cap}, and the dispatcher asks again on every scheduler tick (seed: "Over the
 * cap, a caught-up run waits in the queue like any other").
 * <p>
 * The control plane asks its own books ({@link Billing#mayRun}): the usage billed to the app's
 * owner in this period against their cap plus the free allowance — the same numbers the signed
 * cap states carry to the edge. Raising the cap or a new month lets parked runs go on the next tick.
 */
@ApplicationScoped
public class RunAdmission {

    @Inject
    Billing billing;

    /**
     * @param app the app's name
     * @return true when the app is under its spending cap and its run may start now
     */
    public boolean mayRun(String app) {
        return billing.mayRun(app);
    }
}
