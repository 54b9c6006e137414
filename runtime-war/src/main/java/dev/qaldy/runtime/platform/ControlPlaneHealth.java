package dev.qaldy.runtime.platform;

import dev.qaldy.contract.health.ControlPlaneWatch;
import dev.qaldy.contract.health.UpstreamHealth;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runtime host's one view of the control plane ({@link ControlPlaneWatch}), produced for every
 * caller: the live-version and bundle calls ({@code ControlPlaneClient}) and the cap sync consult it;
 * {@code qaldy.data} (the app's own calls, nothing remembered) only tells it. While it says failing,
 * none of the first calls the control plane for a request: the host serves what it remembers at once.
 */
@ApplicationScoped
public class ControlPlaneHealth extends ControlPlaneWatch {

    @Inject
    @ConfigProperty(name = "qaldy.control.url")
    String control;

    @Override
    protected String controlUrl() {
        return control;
    }

    @Override
    protected String proberName() {
        return "qaldy-runtime-control-probe";
    }

    /** The one view of this process, for every bean that calls the control plane. */
    @Produces
    @Singleton
    UpstreamHealth produceView() {
        return view();
    }
}
