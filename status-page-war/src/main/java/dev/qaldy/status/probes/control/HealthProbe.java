package dev.qaldy.status.probes.control;

import dev.qaldy.status.platform.StatusSettings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends one readiness request ({@code GET <base>/health/ready}) with the probe timeout and never
 * fails: every error becomes an {@link HttpOutcome} without an answer. A process that accepts
 * connections and never answers (SIGSTOP) costs at most the timeout.
 */
@ApplicationScoped
public class HealthProbe {

    /** Largest part of an answer's body kept, in characters. */
    static final int MAX_BODY = 64 * 1024;

    @Resource
    ManagedExecutorService executor;

    @Inject
    StatusSettings settings;

    private HttpClient client;
    private Duration timeout;

    public HealthProbe() {
    }

    /** A probe with its own client and timeout (tests). */
    HealthProbe(HttpClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    @PostConstruct
    void build() {
        timeout = settings.probeTimeout();
        client = client(timeout).executor(executor).build();
    }

    /** A client builder for readiness requests: HTTP/1.1, no redirects, connect timeout {@code timeout}. */
    static HttpClient.Builder client(Duration timeout) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout);
    }

    /** The outcome of {@code GET url}, completed within about the probe timeout. */
    public CompletableFuture<HttpOutcome> probe(URI url) {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Accept", "application/json")
                .header("User-Agent", "qaldy-status-page")
                .GET()
                .build();
        long start = System.nanoTime();
        try {
            return client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    // the request timeout ends at the answer's headers; this one bounds the body too
                    .orTimeout(timeout.toMillis() + 250, TimeUnit.MILLISECONDS)
                    .handle((response, error) -> {
                        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                        if (error != null) {
                            return HttpOutcome.failed(describe(error, timeout), ms);
                        }
                        String body = response.body();
                        return HttpOutcome.answered(response.statusCode(),
                                body.length() > MAX_BODY ? body.substring(0, MAX_BODY) : body, ms);
                    });
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(HttpOutcome.failed(describe(e, timeout), 0));
        }
    }

    /** A failure in plain words, e.g. "connection refused" or "no answer within 2 s". */
    static String describe(Throwable error, Duration timeout) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return "no connection within " + seconds(timeout);
        }
        if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
            return "no answer within " + seconds(timeout);
        }
        if (cause instanceof ConnectException) {
            return "connection refused";
        }
        if (cause instanceof IOException) {
            return "connection failed" + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")");
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** {@code 2 s}, or {@code 1500 ms} when not whole seconds. */
    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
