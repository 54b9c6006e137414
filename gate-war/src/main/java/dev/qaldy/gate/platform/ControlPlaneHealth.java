package dev.qaldy.gate.platform;

import dev.qaldy.contract.health.ControlPlaneWatch;
import dev.qaldy.contract.health.UpstreamHealth;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The gate's one view of the control plane ({@link ControlPlaneWatch}), fed by every call and
 * consulted by every check that has a copy to answer with (access, public sites, the cap fetch, the
 * internal feeds): while failing they do not call it. Webhooks, app data and the API proxy have no
 * copy and call anyway. Metric {@value #FAILING_METRIC} is 1 while failing; a request's waits are its
 * {@code Server-Timing} entry {@value #TIMING_METRIC}.
 */
@ApplicationScoped
public class ControlPlaneHealth extends ControlPlaneWatch {

    static final String FAILING_METRIC = "qaldy_gate_control_plane_failing";
    public static final String TIMING_METRIC = "gate-control";

    @Inject
    GateConfig config;

    @Inject
    MetricRegistry registry;

    /** A call on a request's behalf, with the REST clients' checked failure. */
    @FunctionalInterface
    public interface ControlCall<T> {
        T run() throws ControlPlaneUnavailable;
    }

    @Override
    protected String controlUrl() {
        return config.controlUrl().toString();
    }

    @Override
    protected String proberName() {
        return "qaldy-gate-control-probe";
    }

    @PostConstruct
    void registerGauge() {
        registry.gauge(Metadata.builder().withName(FAILING_METRIC)
                .withDescription("1 while the gate's view of the control plane says failing: requests do not call it, "
                        + "a background probe asks it")
                .build(), view(), v -> v.failing() ? 1 : 0);
    }

    /** {@code gate-control;dur=<ms>;desc="<n> calls"} (W3C Server Timing), when {@code GateFilter} opened a ledger. */
    public static void addServerTiming(HttpServletResponse res) {
        UpstreamHealth.Ledger.current().ifPresent(ledger -> res.addHeader("Server-Timing", ledger.serverTiming(TIMING_METRIC)));
    }

    /**
     * Runs {@code work} and tells the view how it ended.
     *
     * @throws ControlPlaneUnavailable at once while failing, else as {@code work} throws it
     */
    public <T> T call(ControlCall<T> work) throws ControlPlaneUnavailable {
        return call(view(), work);
    }

    /** Against {@code view} (a check's own view in its tests). */
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
     * NO_ANSWER for an I/O error or timeout among the causes, ERROR_ANSWER for a 5xx or a page not the
     * API's ({@link ControlPlane#requireApiAnswer}), null for the gate's own failure (says nothing).
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
