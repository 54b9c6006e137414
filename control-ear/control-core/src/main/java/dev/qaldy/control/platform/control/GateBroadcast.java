package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Sends one JSON message to every gate of the cell, in parallel, and returns once each gate has
 * answered or timed out: the control plane's pushes (sharing changes, sign-outs) go through it
 * before the API answers the change. The gates are {@code qaldy.control.gate-urls} (comma list;
 * {@code bin/qaldy} passes it); each request carries the service token in
 * {@code X-Qaldy-Service-Token} and gets {@code qaldy.control.gate-push-timeout} (default 2 s).
 * A gate that cannot be reached or does not answer 204 is logged, never an error of the change:
 * the change is committed already.
 */
@ApplicationScoped
public class GateBroadcast {

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-urls", defaultValue = "http://127.0.0.1:8080")
    List<String> gates;

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-push-timeout", defaultValue = "PT2S")
    Duration timeout;

    @Inject
    ServiceToken serviceToken;

    @Inject
    Logger log;

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    /**
     * POSTs {@code jsonBody} to {@code path} (e.g. {@code /.qaldy/internal/sharing-versions}) of
     * every gate and waits for all of them, each at most the push timeout.
     *
     * @param what what is pushed, for the log (e.g. "sharing version 3 of memo")
     */
    public void post(String path, String jsonBody, String what) {
        CompletableFuture<?>[] pushes = gates.stream()
                .map(gate -> send(gate, path, jsonBody, what))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(pushes).join();
    }

    private CompletableFuture<Void> send(String gate, String path, String body, String what) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gate + path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("X-Qaldy-Service-Token", serviceToken.secret())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenAccept(response -> {
                    if (response.statusCode() != 204) {
                        log.log(Level.WARNING, "gate {0} answered {1} to the push of {2}",
                                new Object[] {gate, response.statusCode(), what});
                    }
                })
                .exceptionally(failure -> {
                    log.log(Level.WARNING, "cannot push {0} to gate {1}: {2}", new Object[] {what, gate, failure.toString()});
                    return null;
                });
    }
}
