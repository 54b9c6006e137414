package dev.qaldy.gate.platform;

import dev.qaldy.contract.health.UpstreamHealth;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The gate's one view of the control plane's health ({@link UpstreamHealth}, issue 14), fed by every
 * call to it and consulted by every check that has something remembered to answer with: access,
 * public sites, the cap's on-demand fetch, the internal feeds. While it says failing, none of them
 * calls the control plane for a request: a person on the copy is answered at once. (Webhooks, an
 * app's data and the API proxy have no copy: they are sent as ever, and tell the view.) Its background probe
 * ({@code GET /api/v1/ping}, which answers 200 while the API and its database do) runs on a thread of
 * the container's {@link ManagedThreadFactory}, at once and then {@code qaldy.health.probe-interval}
 * (500 ms) after each probe ended while failing, each bounded by {@code qaldy.health.probe-timeout}
 * (1 s); its first answer turns the view up. Metric: {@code qaldy_gate_control_plane_failing} (1 while failing). What one
 * request waited on the gate's own calls is its {@code Server-Timing} entry {@value #TIMING_METRIC}.
 */
@ApplicationScoped
public class ControlPlaneHealth {

    static final String FAILING_METRIC = "qaldy_gate_control_plane_failing";
    /** The {@code Server-Timing} metric of one request's calls to the control plane made by the gate. */
    public static final String TIMING_METRIC = "gate-control";

    @Inject
    GateConfig config;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Inject
    MetricRegistry registry;

    @Resource
    ManagedThreadFactory threads;

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

    private UpstreamHealth view;
    private Runnable stopProber;

    /** A call made on a request's behalf; the REST clients' checked failure. */
    @FunctionalInterface
    public interface ControlCall<T> {
        T run() throws ControlPlaneUnavailable;
    }

    @PostConstruct
    void create() {
        view = UpstreamHealth.controlPlane(config.controlUrl().toString(), probeInterval, heartbeat, probeTimeout, clock, log);
        registry.gauge(Metadata.builder().withName(FAILING_METRIC)
                .withDescription("1 while the gate's view of the control plane says failing: requests do not call it, "
                        + "a background probe asks it")
                .build(), view, v -> v.failing() ? 1 : 0);
    }

    /** Starts the background prober when the application starts. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        stopProber = view.startProber(threads, "qaldy-gate-control-probe");
    }

    @PreDestroy
    void stop() {
        if (stopProber != null) {
            stopProber.run();
        }
    }

    /**
     * Adds the request's {@code Server-Timing} entry, when the request thread opened a ledger
     * ({@code GateFilter}): {@code gate-control;dur=<ms waited>;desc="<n> calls"} (W3C Server
     * Timing; 0 calls while the view says failing: nobody waits for the control plane then).
     */
    public static void addServerTiming(HttpServletResponse res) {
        UpstreamHealth.Ledger.current().ifPresent(ledger -> res.addHeader("Server-Timing", ledger.serverTiming(TIMING_METRIC)));
    }

    /** The view itself, for callers that report their own calls (java.net.http ones). */
    public UpstreamHealth view() {
        return view;
    }

    /**
     * Runs {@code work}, one call to the control plane on a request's behalf, and tells the view how
     * it ended; while the view says failing, {@code work} is not run.
     *
     * @throws ControlPlaneUnavailable at once while failing, else as {@code work} throws it
     */
    public <T> T call(ControlCall<T> work) throws ControlPlaneUnavailable {
        return call(view, work);
    }

    /** {@link #call(ControlCall)} against {@code view} (a check's own view in its unit tests). */
    public static <T> T call(UpstreamHealth view, ControlCall<T> work) throws ControlPlaneUnavailable {
        if (view.failing()) {
            throw new ControlPlaneUnavailable(view.notAsked());
        }
        UpstreamHealth.Call call = view.call();
        try {
            T result = work.run();
            call.answered();
            return result;
        } catch (ControlPlaneUnavailable | RuntimeException e) {
            UpstreamHealth.Failure failure = failureOf(e);
            if (failure == null) {
                call.abandoned();
            } else {
                call.failed(failure, e.toString());
            }
            throw e;
        }
    }

    /**
     * How a REST client call failed, for the view: no answer (an I/O error among the causes, the
     * {@code @Timeout}), an error answer (a 5xx or a server page that is not the API's:
     * {@link ControlPlane#requireApiAnswer}), or null for a failure of the gate's own (a full
     * bulkhead, a bug), which says nothing of the control plane.
     */
    public static UpstreamHealth.Failure failureOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException || t instanceof TimeoutException) {
                return UpstreamHealth.Failure.NO_ANSWER;
            }
        }
        return failure instanceof ControlPlaneUnavailable ? UpstreamHealth.Failure.ERROR_ANSWER : null;
    }
}
