package dev.qaldy.runtime.bundles.control;

import dev.qaldy.contract.data.DataBookmarks;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.http.LimitedBytes;
import dev.qaldy.contract.http.ProblemJson;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runtime host's only caller of the control plane's internal API. It sorts every outcome
 * into exactly one of: an answer, "not there" (404), "could not ask" ({@link ControlPlaneUnavailableException})
 * or "unexpected" (anything else), and tells the host's view of the control plane
 * ({@link UpstreamHealth}) how each exchange ended.
 */
@ApplicationScoped
public class ControlPlaneClient {

    public static final String TOKEN_HEADER = ServiceDirection.HEADER;
    /** The live answer is a few hundred bytes; anything near this is not the contract. */
    static final long MAX_LIVE_ANSWER_BYTES = 64 * 1024;

    private URI base;
    private Duration timeout;
    private Duration bundleTimeout;
    private long maxBundleBytes;
    private CellCredentials credentials;
    private UpstreamHealth health;
    private HttpClient http;

    protected ControlPlaneClient() {
    }

    /**
     * @param timeout        bound on the live-version call, end to end
     * @param bundleTimeout  bound on fetching one bundle, end to end (bundles are up to tens of MiB)
     * @param maxBundleBytes the largest bundle zip accepted, in bytes
     * @param health         the host's view of the control plane
     */
    @Inject
    public ControlPlaneClient(@ConfigProperty(name = "qaldy.control.url") String base,
            @ConfigProperty(name = "qaldy.runtime.control-timeout", defaultValue = "PT2S") Duration timeout,
            @ConfigProperty(name = "qaldy.runtime.bundle-timeout", defaultValue = "PT10S") Duration bundleTimeout,
            @ConfigProperty(name = "qaldy.runtime.max-bundle-bytes", defaultValue = "52428800") long maxBundleBytes,
            CellCredentials credentials, UpstreamHealth health) {
        this.base = URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
        this.timeout = timeout;
        this.bundleTimeout = bundleTimeout;
        this.maxBundleBytes = maxBundleBytes;
        this.credentials = credentials;
        this.health = health;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * Which version of {@code app} is live ({@code GET /api/v1/internal/apps/A/live}), the account
     * its usage counts against ({@code accountId}, when the answer names one) and the signed live
     * record ({@code record}, when the answer carries one; verified where it is kept).
     *
     * @throws NotPublishedException            no such app or no live version, with the answer's tombstone if any
     * @throws ControlPlaneUnavailableException the control plane could not be asked
     * @throws UnexpectedAnswerException        any other answer
     */
    public LiveVersion live(String app) {
        Answer answer = get("/api/v1/internal/apps/" + app + "/live", MAX_LIVE_ANSWER_BYTES, timeout);
        if (answer.status() == 404) {
            throw new NotPublishedException("control plane: no live version of " + app, tombstone(answer.body()));
        }
        requireOk(answer, "live version of " + app);
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(answer.body()))) {
            JsonObject json = reader.readObject();
            long account = json.get("accountId") instanceof JsonNumber a && a.isIntegral() && a.longValue() > 0
                    ? a.longValue() : LiveVersion.NO_ACCOUNT;
            LiveVersion live = new LiveVersion(json.getString("app"), json.getJsonNumber("version").longValueExact(),
                    json.getString("sha256"), json.getString("seal"), account, json.getString("record", null));
            if (!live.app().equals(app) || live.version() < 1 || !live.sha256().matches("[0-9a-f]{64}")) {
                throw new UnexpectedAnswerException("control plane: a live answer for " + app + " that does not fit: "
                        + live.app() + " v" + live.version());
            }
            return live;
        } catch (JsonException | ClassCastException | NullPointerException | ArithmeticException e) {
            throw new UnexpectedAnswerException("control plane: unreadable live answer for " + app + ": " + e, e);
        }
    }

    /** The {@code tombstone} member of a 404 problem body (a string, unverified), or null. */
    private static String tombstone(byte[] problem) {
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(problem))) {
            return reader.readObject().getString("tombstone", null);
        } catch (JsonException | ClassCastException e) {
            return null;
        }
    }

    /**
     * The bytes of one version's bundle ({@code GET /api/v1/internal/apps/A/versions/V/bundle}).
     *
     * @throws NotPublishedException            the version is gone
     * @throws ControlPlaneUnavailableException the control plane could not be asked
     * @throws UnexpectedAnswerException        any other answer, or a bundle over the size bound
     */
    public byte[] bundle(BundleKey key) {
        Answer answer = get("/api/v1/internal/apps/" + key.app() + "/versions/" + key.version() + "/bundle",
                maxBundleBytes, bundleTimeout);
        if (answer.status() == 404) {
            throw new NotPublishedException("control plane: the bundle of " + key + " is gone");
        }
        requireOk(answer, "bundle of " + key);
        return answer.body();
    }

    private static void requireOk(Answer answer, String what) {
        if (answer.status() != 200) {
            throw new UnexpectedAnswerException("control plane answered HTTP " + answer.status() + " for the " + what);
        }
    }

    private Answer get(String path, long limit, Duration bound) {
        return exchange(HttpRequest.newBuilder(URI.create(base + path))
                .header(TOKEN_HEADER, credentials.toControl())
                .header("Accept", "application/json, application/zip")
                .GET(), path, limit, bound);
    }

    /** The host's view of the control plane, for the other callers of it (the cap sync). */
    public UpstreamHealth health() {
        return health;
    }

    /** The control plane's base URL, without a trailing slash. */
    public URI base() {
        return base;
    }

    /**
     * Sends one request to the control plane as built by the caller (its own credential headers),
     * bounded in time end to end and in answer size, and sorts the outcome.
     *
     * @param what  names the call in messages (for the log only)
     * @param limit the largest answer body read, in bytes
     * @param bound the whole exchange, headers and body
     * @return the answer, when its status is below 500 and it is the API's
     * @throws ControlPlaneUnavailableException connect error, timeout, HTTP 5xx, a 4xx that is not the API's problem JSON,
     *                                          and at once while the host's view says the control plane is failing
     * @throws UnexpectedAnswerException        an answer over {@code limit}, or any other failure
     */
    public Answer exchange(HttpRequest.Builder builder, String what, long limit, Duration bound) {
        if (health.failing()) {
            throw ControlPlaneUnavailableException.notAsked("control plane: " + what + ": " + health.notAsked());
        }
        return send(builder, what, limit, bound);
    }

    /**
     * As {@link #exchange}, but sent whatever the host's view says: for a call that passes an app's own
     * request on and has nothing remembered to fall back on ({@code qaldy.data}); it still tells the view.
     */
    public Answer passThrough(HttpRequest.Builder builder, String what, long limit, Duration bound) {
        return send(builder, what, limit, bound);
    }

    private Answer send(HttpRequest.Builder builder, String what, long limit, Duration bound) {
        HttpRequest request = builder.timeout(bound).build();
        UpstreamHealth.Call call = health.call();
        CompletableFuture<HttpResponse<byte[]>> exchange =
                http.sendAsync(request, LimitedBytes.handler(limit, TooLargeException::new));
        HttpResponse<byte[]> response;
        try {
            // The request timeout stops waiting for headers only; this bounds the body as well.
            response = exchange.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            call.failed(UpstreamHealth.Failure.NO_ANSWER, what + ": no full answer within " + bound);
            throw new ControlPlaneUnavailableException("control plane: no full answer within " + bound + " for " + what);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            call.abandoned();
            Thread.currentThread().interrupt();
            throw new ControlPlaneUnavailableException("control plane: interrupted while asking for " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof TooLargeException) {
                call.abandoned();
                throw new UnexpectedAnswerException("control plane: the answer for " + what + " is over " + limit + " bytes");
            }
            if (cause instanceof IOException) {
                call.failed(UpstreamHealth.Failure.NO_ANSWER, what + ": " + cause);
                throw new ControlPlaneUnavailableException("control plane: " + cause + " for " + what, cause);
            }
            call.abandoned();
            throw new UnexpectedAnswerException("control plane: failed call for " + what + ": " + cause, cause);
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (response.statusCode() >= 500) {
            call.failed(UpstreamHealth.Failure.ERROR_ANSWER, what + ": HTTP " + response.statusCode());
            throw new ControlPlaneUnavailableException("control plane answered HTTP " + response.statusCode() + " for " + what);
        }
        if (!ProblemJson.fromTheApi(response.statusCode(), type)) {
            call.failed(UpstreamHealth.Failure.ERROR_ANSWER, what + ": HTTP " + response.statusCode() + " " + type);
            throw new ControlPlaneUnavailableException("control plane answered HTTP " + response.statusCode() + " without the API's"
                    + " problem JSON (" + (type.isEmpty() ? "no Content-Type" : type) + ") for " + what + ": its application is not serving");
        }
        call.answered();
        return new Answer(response.statusCode(), type, response.body(),
                DataBookmarks.parse(response.headers().firstValue(DataBookmarks.HEADER).orElse(null)).orElse(-1));
    }

    /**
     * An answer of the control plane below 500: status, its Content-Type ("" when none), body, and the
     * data API's bookmark ({@link DataBookmarks#HEADER}; -1 when it has none).
     */
    public record Answer(int status, String contentType, byte[] body, long dataBookmark) {
    }

    /** An answer body over its bound. */
    static final class TooLargeException extends IOException {

        private static final long serialVersionUID = 1L;

        TooLargeException(long limit) {
            super("over " + limit + " bytes");
        }
    }
}
