package dev.qaldy.control.platform.control;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.control.CellPush.Delivery;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The control plane's pushes to the edge ({@link CellPush}): one message to every instance of a kind,
 * returning once each has answered or timed out ({@code qaldy.control.gate-push-timeout}, default
 * 2 s each), before the API answers the change. The gates are {@code qaldy.control.gate-urls} (each
 * gate's internal listener, the only one that serves the pushes), with the control-to-gate
 * credential; the runtime hosts are {@code qaldy.control.runtime-urls} (default
 * {@code qaldy.runtime.url}), with the control-to-runtime credential. {@code bin/qaldy} passes both lists.
 */
@ApplicationScoped
public class CellBroadcast {

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-urls", defaultValue = "http://127.0.0.1:8083")
    List<String> gateUrls;

    @Inject
    @ConfigProperty(name = "qaldy.control.runtime-urls")
    List<String> runtimeUrls;

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-push-timeout", defaultValue = "PT2S")
    Duration timeout;

    @Inject
    ServiceKeys keys;

    @Inject
    Logger log;

    private CellPush gates;
    private CellPush runtimeHosts;

    @PostConstruct
    void wire() {
        gates = new CellPush("gate", gateUrls, () -> keys.secret(ServiceDirection.CONTROL_TO_GATE), timeout, log);
        runtimeHosts = new CellPush("runtime host", runtimeUrls, () -> keys.secret(ServiceDirection.CONTROL_TO_RUNTIME), timeout, log);
    }

    /**
     * POSTs JSON {@code jsonBody} to {@code path} (e.g. {@code /.qaldy/internal/sharing-versions}) of every gate.
     *
     * @param what what is pushed, for the log (e.g. "sharing version 3 of memo")
     * @return each gate's URL (as configured) with how it took the push
     */
    public Map<String, Delivery> toGates(String path, String jsonBody, String what) {
        return gates.post(path, jsonBody, "application/json", what);
    }

    /** As {@link #toGates(String, String, String)}, with a body of {@code contentType}. */
    public Map<String, Delivery> toGates(String path, String body, String contentType, String what) {
        return gates.post(path, body, contentType, what);
    }

    /** POSTs {@code body} ({@code contentType}) to {@code path} of every runtime host; each host's URL with how it took it. */
    public Map<String, Delivery> toRuntimeHosts(String path, String body, String contentType, String what) {
        return runtimeHosts.post(path, body, contentType, what);
    }
}
