package dev.qaldy.gate.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * Builds MicroProfile REST clients for the control plane's internal API at
 * {@code qaldy.control.url}, so one {@code -Dqaldy.control.url} points every client elsewhere.
 * Non-2xx answers come back as responses, never as exceptions: the callers tell a 4xx answer
 * from a 5xx failure themselves.
 */
@ApplicationScoped
public class ControlPlane {

    /** The service token header of every internal call (docs/cell-contract.md). */
    public static final String SERVICE_TOKEN_HEADER = "X-Qaldy-Service-Token";

    @Inject
    GateConfig config;

    /**
     * A client for {@code api} whose connect and read timeouts are both {@code timeoutMillis}, so
     * a control plane that accepts connections and never answers cannot hold a thread longer.
     */
    public <T> T client(Class<T> api, long timeoutMillis) {
        return RestClientBuilder.newBuilder()
                .baseUri(config.controlUrl())
                .connectTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .readTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .property("microprofile.rest.client.disable.default.mapper", Boolean.TRUE)
                .build(api);
    }
}
