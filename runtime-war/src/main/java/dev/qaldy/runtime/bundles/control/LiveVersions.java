package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.bundles.entity.LiveVersion;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Which version of an app is live. Asking comes first, always: today every request asks the
 * control plane. This is where remembered answers go, used only while the control plane cannot
 * be asked (connect error, timeout, 5xx) and never instead of asking; a 404 passes through as is.
 */
@ApplicationScoped
public class LiveVersions {

    private ControlPlaneClient controlPlane;
    private Logger log;
    private final AtomicBoolean reachable = new AtomicBoolean(true);

    protected LiveVersions() {
    }

    @Inject
    public LiveVersions(ControlPlaneClient controlPlane, Logger log) {
        this.controlPlane = controlPlane;
        this.log = log;
    }

    /**
     * @throws NotPublishedException            no such app or nothing published
     * @throws ControlPlaneUnavailableException the control plane could not be asked
     * @throws UnexpectedAnswerException        the control plane answered outside the contract
     */
    public LiveVersion live(String app) {
        try {
            LiveVersion live = controlPlane.live(app);
            reached();
            return live;
        } catch (NotPublishedException | UnexpectedAnswerException e) {
            reached();
            throw e;
        } catch (ControlPlaneUnavailableException e) {
            if (reachable.compareAndSet(true, false)) {
                log.log(Level.WARNING, "Control plane cannot be asked: {0}", e.getMessage());
            } else {
                log.log(Level.FINE, "Control plane still cannot be asked: {0}", e.getMessage());
            }
            throw e;
        }
    }

    private void reached() {
        if (reachable.compareAndSet(false, true)) {
            log.info("Control plane answers again");
        }
    }
}
