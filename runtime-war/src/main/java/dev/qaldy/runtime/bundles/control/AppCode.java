package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.CodeSource;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.bundles.entity.Sourced;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The code that answers a request for an app: its live version, then that version's bundle, each
 * with where it came from. When the control plane says an app or a version is gone (404), the host
 * forgets it everywhere — live memory, bundle memory and the data-centre files — so a deleted
 * version cannot come back, not even during a later outage.
 */
@ApplicationScoped
public class AppCode {

    private LiveVersions liveVersions;
    private BundleStore bundles;
    private DataCentreCache copies;
    private Logger log;
    /** Apps served from a data-centre copy since the control plane last answered for them. */
    private final Set<String> onCopy = ConcurrentHashMap.newKeySet();

    protected AppCode() {
    }

    @Inject
    public AppCode(LiveVersions liveVersions, BundleStore bundles, DataCentreCache copies, Logger log) {
        this.liveVersions = liveVersions;
        this.bundles = bundles;
        this.copies = copies;
        this.log = log;
    }

    /**
     * The bundle of {@code app}'s live version.
     *
     * @throws NotPublishedException            the app or its live version is gone
     * @throws ControlPlaneUnavailableException the control plane cannot be asked and nothing usable is kept
     * @throws BundleRefusedException           the bundle did not verify
     * @throws UnexpectedAnswerException        the control plane answered outside the contract
     */
    public Sourced<Bundle> current(String app) {
        Sourced<LiveVersion> live;
        try {
            live = liveVersions.live(app);
        } catch (NotPublishedException e) {
            bundles.forget(app); // LiveVersions forgot the live answer and deleted the app's data-centre files
            throw e;
        }
        Sourced<Bundle> bundle;
        try {
            bundle = bundles.bundle(live);
        } catch (NotPublishedException e) {
            BundleKey key = live.value().key();
            liveVersions.forget(app);
            bundles.forget(key);
            copies.forget(key);
            throw e;
        }
        if (bundle.source() == CodeSource.DC_COPY) {
            if (onCopy.add(app)) {
                log.log(Level.INFO, "Serving {0} from its sealed data-centre copy: the control plane cannot be asked",
                        bundle.value().key());
            }
        } else if (bundle.source() == CodeSource.API) {
            onCopy.remove(app);
        }
        return bundle;
    }
}
