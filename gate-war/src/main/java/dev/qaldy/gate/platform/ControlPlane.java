package dev.qaldy.gate.platform;

import dev.qaldy.contract.http.ProblemJson;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
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

    /**
     * Makes sure {@code response} is the control plane's API speaking: a 2xx or 3xx, or a 4xx
     * carrying its problem JSON. A 4xx without it is not the API's answer but its server's, e.g.
     * the server's own 404 page while the control plane's application is not deployed (a start
     * with the database down): that is a control-plane failure like a 5xx, never "no such app".
     *
     * @param call names the call, for the exception's message
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

    /**
     * True when an answer below 500 is the API speaking: a 2xx or 3xx, or a 4xx with its problem
     * JSON (not the server's own page while the application is not deployed).
     */
    public static boolean isApiAnswer(int status, String contentType) {
        return status < 400 || (status < 500 && isProblemJson(contentType));
    }

    /** True when {@code contentType} (a header value, or null) is the API's problem JSON. */
    public static boolean isProblemJson(String contentType) {
        return contentType != null && contentType.trim().toLowerCase(java.util.Locale.ROOT).startsWith("application/problem+json");
    }

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
