package dev.qaldy.gate.platform;

import dev.qaldy.contract.health.UpstreamHealth;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a page of one of the control plane's internal feeds (sharing changes, shield settings,
 * sign-outs, hooks) with the service token, on one HTTP/1.1 client. Each page tells
 * {@link ControlPlaneHealth} how it ended; none is asked while it says failing.
 */
@ApplicationScoped
public class InternalFeed {

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
     * The body of a 200 answer.
     *
     * @param timeout the whole request's bound
     * @param feed    names the feed in the exception's message
     * @throws IOException for any other status, a body over {@code maxBytes}, a connect error or a
     *                     timeout, and at once while the control plane is failing
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

    /** One page of a cursor-paged feed: its entries (objects only), the position after them, and whether more follow. */
    public record Changes(List<JsonObject> entries, long next, boolean more) {
    }

    /**
     * {@code GET path?since=S&limit=L}, whose answer is {@code {"<key>":[…],"next":N,"more":B}} with
     * {@code N >= since}; {@code more} is false for an empty page.
     *
     * @throws IOException as {@link #page}, or for an answer of another shape or an older position
     */
    public Changes changes(String path, String key, long since, int limit, Duration timeout, int maxBytes)
            throws IOException, InterruptedException {
        byte[] body = page(path + "?since=" + since + "&limit=" + limit, timeout, maxBytes, path);
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            json = reader.readObject();
        } catch (RuntimeException e) {
            throw new IOException(path + ": an answer that is not a JSON object (" + e.getClass().getSimpleName() + ")");
        }
        if (!(json.get(key) instanceof JsonArray array) || !(json.get("next") instanceof JsonNumber next)
                || !next.isIntegral() || next.longValue() < since) {
            throw new IOException(path + ": an answer without " + key + " or with an older position");
        }
        List<JsonObject> entries = new ArrayList<>();
        for (JsonValue entry : array) {
            if (entry instanceof JsonObject object) {
                entries.add(object);
            }
        }
        return new Changes(entries, next.longValue(), json.getBoolean("more", false) && !array.isEmpty());
    }
}
