package dev.qaldy.gate.platform;

import dev.qaldy.contract.health.UpstreamHealth;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads a page of one of the control plane's internal feeds ({@code GET /api/v1/internal/…}: the
 * sharing changes, the owners' shield settings, the signed-out sessions) with the service token:
 * one HTTP/1.1 client for all of them, redirects never followed, a connect timeout of 2 s. Each
 * page tells the gate's view of the control plane ({@link ControlPlaneHealth}) how it ended, and
 * none is asked while that view says failing (the feeds' own retries run on; a request that waits on
 * the sign-outs' load is answered at once).
 */
@ApplicationScoped
public class InternalFeed {

    /** Longest wait for a connection to the control plane, for every feed. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    ControlPlaneHealth controlPlane;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

    /**
     * The body of a 200 answer to {@code pathAndQuery}.
     *
     * @param pathAndQuery e.g. {@code /api/v1/internal/sharing-changes?limit=500}
     * @param timeout      the whole request's bound
     * @param maxBytes     the largest body taken
     * @param feed         names the feed in the exception's message
     * @throws IOException for any other status (a 404 while the API is not deployed, a 5xx with its
     *                     database down, a 401 for a wrong service token), a body over {@code maxBytes},
     *                     a connect error or a timeout, and at once while the control plane is failing
     */
    public byte[] page(String pathAndQuery, Duration timeout, int maxBytes, String feed) throws IOException, InterruptedException {
        UpstreamHealth health = controlPlane.view();
        if (health.failing()) {
            throw new IOException(feed + ": " + health.notAsked());
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(config.controlUrl() + pathAndQuery)).timeout(timeout)
                .header(ControlPlane.SERVICE_TOKEN_HEADER, secrets.toControl()).header("Accept", "application/json").GET()
                .build();
        UpstreamHealth.Call call = health.call();
        HttpResponse<InputStream> response;
        byte[] body;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                body = in.readNBytes(maxBytes + 1);
            }
        } catch (IOException e) {
            call.failed(UpstreamHealth.Failure.NO_ANSWER, feed + ": " + e);
            throw e;
        } catch (InterruptedException | RuntimeException e) {
            call.abandoned();
            throw e;
        }
        if (ControlPlane.isApiAnswer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null))) {
            call.answered();
        } else {
            call.failed(UpstreamHealth.Failure.ERROR_ANSWER, feed + " answered HTTP " + response.statusCode());
        }
        if (response.statusCode() != 200) {
            throw new IOException(feed + " answered HTTP " + response.statusCode());
        }
        if (body.length > maxBytes) {
            throw new IOException(feed + " answered more than " + maxBytes + " bytes");
        }
        return body;
    }
}
