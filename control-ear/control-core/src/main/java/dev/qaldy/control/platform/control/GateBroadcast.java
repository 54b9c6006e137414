package dev.qaldy.control.platform.control;

import dev.qaldy.contract.keys.ServiceDirection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Sends one JSON message to every gate of the cell, in parallel, and returns once each gate has
 * answered or timed out: the control plane's pushes (sharing changes, sign-outs) go through it
 * before the API answers the change. The gates are {@code qaldy.control.gate-urls} (comma list of
 * each gate's internal listener, the only one that serves the pushes; {@code bin/qaldy} passes it); each request carries the service token in
 * {@code X-Qaldy-Service-Token} and gets {@code qaldy.control.gate-push-timeout} (default 2 s).
 * A gate that cannot be reached or does not answer 204 is logged, never an error of the change:
 * the change is committed already; {@link #post} tells the caller how each gate answered.
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

    /** How one gate took a push. */
    public enum Delivery {
        /** Answered 204. */
        ACKNOWLEDGED,
        /** Refused the connection: no process listens at its address (a gate that starts remembers nothing). */
        NOT_RUNNING,
        /** Timed out, reset the connection or answered anything but 204: it may still hold what it knew. */
        NOT_ACKNOWLEDGED
    }

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    /**
     * POSTs {@code jsonBody} to {@code path} (e.g. {@code /.qaldy/internal/sharing-versions}) of
     * every gate and waits for all of them, each at most the push timeout.
     *
     * @param what what is pushed, for the log (e.g. "sharing version 3 of memo")
     * @return each gate's URL (as configured) with how it took the push
     */
    public Map<String, Delivery> post(String path, String jsonBody, String what) {
        Map<String, Delivery> deliveries = new ConcurrentHashMap<>();
        CompletableFuture<?>[] pushes = gates.stream()
                .map(gate -> send(gate, path, jsonBody, what).thenAccept(d -> deliveries.put(gate, d)))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(pushes).join();
        return Map.copyOf(deliveries);
    }

    private CompletableFuture<Delivery> send(String gate, String path, String body, String what) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gate + path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header(ServiceDirection.HEADER, keys.secret(ServiceDirection.CONTROL_TO_GATE))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenApply(response -> {
                    if (response.statusCode() != 204) {
                        log.log(Level.WARNING, "gate {0} answered {1} to the push of {2}",
                                new Object[] {gate, response.statusCode(), what});
                        return Delivery.NOT_ACKNOWLEDGED;
                    }
                    return Delivery.ACKNOWLEDGED;
                })
                .exceptionally(failure -> {
                    log.log(Level.WARNING, "cannot push {0} to gate {1}: {2}", new Object[] {what, gate, failure.toString()});
                    return refused(failure) ? Delivery.NOT_RUNNING : Delivery.NOT_ACKNOWLEDGED;
                });
    }

    /** True when {@code failure} is a refused connection (nothing listens), not a timeout or a reset. */
    static boolean refused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }
}
