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
 * Sends one message to every runtime host of the cell ({@link CellPush}), as {@link GateBroadcast}
 * does to the gates: the hosts are {@code qaldy.control.runtime-urls} (comma list; {@code bin/qaldy}
 * passes both hosts when the cell has two; default {@code qaldy.runtime.url}), with the
 * control-to-runtime credential and {@code qaldy.control.gate-push-timeout} (default 2 s) each.
 */
@ApplicationScoped
public class RuntimeBroadcast {

    @Inject
    @ConfigProperty(name = "qaldy.control.runtime-urls")
    List<String> hosts;

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
        push = new CellPush("runtime host", hosts, () -> keys.secret(ServiceDirection.CONTROL_TO_RUNTIME), timeout, log);
    }

    /**
     * POSTs {@code body} ({@code contentType}) to {@code path} of every runtime host.
     *
     * @return each host's URL (as configured) with how it took the push
     */
    public Map<String, Delivery> post(String path, String body, String contentType, String what) {
        return push.post(path, body, contentType, what);
    }
}
