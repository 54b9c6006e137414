package dev.qaldy.gate.platform;

import dev.qaldy.contract.http.ProblemJson;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * MicroProfile REST clients for the control plane's internal API at {@code qaldy.control.url}.
 * Non-2xx answers come back as responses: callers tell a 4xx from a 5xx themselves.
 */
@ApplicationScoped
public class ControlPlane {

    /** docs/cell-contract.md. */
    public static final String SERVICE_TOKEN_HEADER = "X-Qaldy-Service-Token";

    /**
     * The rule is {@link ProblemJson#fromTheApi}.
     *
     * @throws ControlPlaneUnavailable for a 5xx, or a 4xx that is not the API's problem JSON
     */
    public static void requireApiAnswer(Response response, String call) throws ControlPlaneUnavailable {
        int status = response.getStatus();
        if (status >= 500) {
            throw new ControlPlaneUnavailable(call + " answered HTTP " + status);
        }
        MediaType type = response.getMediaType();
        if (!ProblemJson.fromTheApi(status, type == null ? null : type.toString())) {
            throw new ControlPlaneUnavailable(call + " answered HTTP " + status + " without the API's problem JSON ("
                    + type + "): the control plane's application is not serving");
        }
    }

    /** As {@link ProblemJson#fromTheApi}, and false for a 5xx. */
    public static boolean isApiAnswer(int status, String contentType) {
        return status < 500 && ProblemJson.fromTheApi(status, contentType);
    }

    @Inject
    GateConfig config;

    /** Connect and read timeouts are both {@code timeoutMillis}, so a silent control plane cannot hold a thread longer. */
    public <T> T client(Class<T> api, long timeoutMillis) {
        return RestClientBuilder.newBuilder()
                .baseUri(config.controlUrl())
                .connectTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .readTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .property("microprofile.rest.client.disable.default.mapper", Boolean.TRUE)
                .build(api);
    }
}
