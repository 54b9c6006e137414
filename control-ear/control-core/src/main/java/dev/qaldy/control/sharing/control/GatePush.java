package dev.qaldy.control.sharing.control;

import dev.qaldy.control.platform.control.ServiceToken;
import dev.qaldy.control.sharing.entity.SharingChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
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
 * Pushes an app's new sharing version to every gate of the cell after the change is committed and
 * before the API answers it, so no gate lets a revoked person in from a copy. The gates listed in
 * {@code qaldy.control.gate-urls} receive {@code POST /.qaldy/internal/sharing-versions}
 * {@code {"app","sharingVersion"}} with the service token; each gets {@code qaldy.control.gate-push-timeout}
 * (default 2 s). A gate that cannot be reached is logged: it has asked again within its freshness
 * window (30 s) anyway, and a restarted gate remembers nothing.
 */
@ApplicationScoped
public class GatePush {

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

    /** Runs after a successful commit, in the thread that answers the change. */
    void push(@Observes(during = TransactionPhase.AFTER_SUCCESS) SharingChanged change) {
        String body = "{\"app\":\"" + change.app() + "\",\"sharingVersion\":" + change.sharingVersion() + "}";
        CompletableFuture<?>[] pushes = gates.stream().map(gate -> send(gate, body, change)).toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(pushes).join();
    }

    private CompletableFuture<Void> send(String gate, String body, SharingChanged change) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gate + "/.qaldy/internal/sharing-versions"))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("X-Qaldy-Service-Token", serviceToken.secret())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenAccept(response -> {
                    if (response.statusCode() != 204) {
                        log.log(Level.WARNING, "gate {0} answered {1} to the sharing push for {2}",
                                new Object[] {gate, response.statusCode(), change.app()});
                    }
                })
                .exceptionally(failure -> {
                    log.log(Level.WARNING, "cannot push sharing version {0} of {1} to gate {2}: {3}",
                            new Object[] {change.sharingVersion(), change.app(), gate, failure.toString()});
                    return null;
                });
    }
}
