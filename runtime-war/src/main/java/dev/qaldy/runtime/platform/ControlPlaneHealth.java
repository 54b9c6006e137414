package dev.qaldy.runtime.platform;

import dev.qaldy.contract.health.UpstreamHealth;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runtime host's one view of the control plane's health ({@link UpstreamHealth}, issue 14),
 * produced for every caller: the live-version and bundle calls ({@code ControlPlaneClient}) and the
 * cap sync consult it; {@code qaldy.data} (the app's own calls, nothing remembered) only tells it.
 * While it says failing, none of the first calls the control plane for a request: the host serves
 * what it remembers at once. Its background probe
 * ({@link UpstreamHealth#CONTROL_PLANE_PROBE}) runs on a thread of the container's {@link ManagedThreadFactory}, at
 * once and then {@code qaldy.health.probe-interval} (500 ms) after each probe ended, while failing, each bounded by
 * {@code qaldy.health.probe-timeout} (1 s); its first answer turns the view up.
 */
@ApplicationScoped
public class ControlPlaneHealth {

    @Inject
    @ConfigProperty(name = "qaldy.control.url")
    String control;

    @Inject
    @ConfigProperty(name = "qaldy.health.probe-interval", defaultValue = "PT0.5S")
    Duration probeInterval;

    @Inject
    @ConfigProperty(name = "qaldy.health.probe-timeout", defaultValue = "PT1S")
    Duration probeTimeout;

    /** While up, the probe asks once nothing answered for this long (issue 14: a hang is found by it, not by a person). */
    @Inject
    @ConfigProperty(name = "qaldy.health.heartbeat", defaultValue = "PT0.5S")
    Duration heartbeat;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Resource
    ManagedThreadFactory threads;

    private UpstreamHealth view;
    private Runnable stopProber;

    @PostConstruct
    void create() {
        view = UpstreamHealth.controlPlane(control, probeInterval, heartbeat, probeTimeout, clock, log);
    }

    /** The one view of this process, for every bean that calls the control plane. */
    @Produces
    @Singleton
    UpstreamHealth view() {
        return view;
    }

    /** Starts the background prober when the application starts. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        stopProber = view.startProber(threads, "qaldy-runtime-control-probe");
    }

    @PreDestroy
    void stop() {
        if (stopProber != null) {
            stopProber.run();
        }
    }
}
