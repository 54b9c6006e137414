package dev.qaldy.gate.access;

import dev.qaldy.contract.health.ControlPlaneWitness;
import dev.qaldy.gate.platform.GateConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Asks the runtime host ({@code qaldy.runtime.url}) how long ago the control plane last answered it
 * ({@link ControlPlaneWitness}), for {@link GateSync} while this gate cannot reach the control plane.
 * Off the request path: the sync thread asks once per failed round, each ask bounded by {@link #TIMEOUT}.
 */
@ApplicationScoped
public class RuntimeWitness {

    /** Connect and whole answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    @Inject
    GateConfig config;

    @Inject
    Logger log;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

    /** The witness's {@code answeredMsAgo} (ms, -1: never answered it); empty when it could not be asked. */
    public OptionalLong answeredMsAgo() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(config.runtimeUrl() + ControlPlaneWitness.PATH))
                .timeout(TIMEOUT).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            byte[] body;
            try (InputStream in = response.body()) {
                body = in.readNBytes(ControlPlaneWitness.MAX_ANSWER_BYTES + 1);
            }
            if (response.statusCode() != 200 || body.length > ControlPlaneWitness.MAX_ANSWER_BYTES) {
                throw new IOException("answered HTTP " + response.statusCode() + " with " + body.length + " bytes");
            }
            return OptionalLong.of(ControlPlaneWitness.answeredMsAgo(body));
        } catch (IOException e) {
            log.log(Level.FINE, "gate: cannot ask the runtime host for its view of the control plane: {0}", e.toString());
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }
}
