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
 * Sends one message to every gate of the cell ({@link CellPush}) and returns once each has
 * answered or timed out: the control plane's pushes (sharing changes, sign-outs, cap states) go
 * through it before the API answers the change. The gates are {@code qaldy.control.gate-urls}
 * (comma list of each gate's internal listener, the only one that serves the pushes;
 * {@code bin/qaldy} passes it), with the control-to-gate credential and
 * {@code qaldy.control.gate-push-timeout} (default 2 s) each.
 */
@ApplicationScoped
public class GateBroadcast {

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-urls", defaultValue = "http://127.0.0.1:8083")
    List<String> gates;

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-push-timeout", defaultValue = "PT2S")
    Duration timeout;

    @Inject
    ServiceKeys keys;

    @Inject
    Logger log;

    private CellPush push;

    @PostConstruct
    void wire() {
        push = new CellPush("gate", gates, () -> keys.secret(ServiceDirection.CONTROL_TO_GATE),
                timeout, log);
    }

    /**
     * POSTs JSON {@code jsonBody} to {@code path} (e.g. {@code /.qaldy/internal/sharing-versions}) of every gate.
     *
     * @param what what is pushed, for the log (e.g. "sharing version 3 of memo")
     * @return each gate's URL (as configured) with how it took the push
     */
    public Map<String, Delivery> post(String path, String jsonBody, String what) {
        return push.post(path, jsonBody, "application/json", what);
    }

    /** As {@link #post}, with a body of {@code contentType}. */
    public Map<String, Delivery> post(String path, String body, String contentType, String what) {
        return push.post(path, body, contentType, what);
    }
}
