package dev.qaldy.contract.health;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A process's one view of the control plane ({@link UpstreamHealth}, issue 14), as the base of the
 * gate's and the runtime host's {@code @ApplicationScoped ControlPlaneHealth}. Its probe
 * ({@link UpstreamHealth#CONTROL_PLANE_PROBE}) runs on a thread of the container's
 * {@link ManagedThreadFactory} from the application's start: every {@code qaldy.health.probe-interval}
 * while failing, each bounded by {@code qaldy.health.probe-timeout}; its first answer turns the view up.
 */
public abstract class ControlPlaneWatch {

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

    /** The control plane's base URL, e.g. {@code http://127.0.0.1:8081}. */
    protected abstract String controlUrl();

    /** The probe thread's name. */
    protected abstract String proberName();

    @PostConstruct
    void createView() {
        view = UpstreamHealth.controlPlane(controlUrl(), probeInterval, heartbeat, probeTimeout, clock, log);
    }

    void startProber(@Observes @Initialized(ApplicationScoped.class) Object started) {
        stopProber = view.startProber(threads, proberName());
    }

    @PreDestroy
    void stopProber() {
        if (stopProber != null) {
            stopProber.run();
        }
    }

    /** The one view of this process. */
    public UpstreamHealth view() {
        return view;
    }
}
