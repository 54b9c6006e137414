package dev.qaldy.control.platform.control;

import dev.qaldy.contract.keys.ServiceDirection;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One push of the control plane to every instance of one kind of edge component (the gates, the
 * runtime hosts), in parallel: each request carries the credential made for that call and gets
 * {@code timeout}; {@link #post} returns once each has answered or timed out, with how each took
 * it. A 2xx answer is an acknowledgement; anything else is logged, never an error of the change the
 * push tells about (it is committed already).
 */
public final class CellPush {

    /** How one instance took a push. */
    public enum Delivery {
        /** Answered 2xx. */
        ACKNOWLEDGED,
        /** Refused the connection: no process listens at its address (one that starts remembers nothing). */
        NOT_RUNNING,
        /** Timed out, reset the connection or answered anything but 2xx: it may still hold what it knew. */
        NOT_ACKNOWLEDGED
    }

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private final String kind;
    private final List<String> urls;
    private final Supplier<String> credential;
    private final Duration timeout;
    private final Logger log;

    /**
     * @param kind       what the instances are, for the log ("gate", "runtime host")
     * @param urls       each instance's base URL, e.g. {@code http://127.0.0.1:8083}
     * @param credential the secret of the call's direction (e.g. control-to-gate), read when a push is sent
     */
    public CellPush(String kind, List<String> urls, Supplier<String> credential, Duration timeout,
            Logger log) {
        this.kind = kind;
        this.urls = List.copyOf(urls);
        this.credential = credential;
        this.timeout = timeout;
        this.log = log;
    }

    /**
     * POSTs {@code body} ({@code contentType}) to {@code path} of every instance and waits for all,
     * each at most the timeout.
     *
     * @param what what is pushed, for the log (e.g. "sharing version 3 of memo")
     * @return each instance's URL (as configured) with how it took the push
     */
    public Map<String, Delivery> post(String path, String body, String contentType, String what) {
        Map<String, Delivery> deliveries = new ConcurrentHashMap<>();
        String secret = credential.get();
        CompletableFuture<?>[] pushes = urls.stream()
                .map(url -> send(url, path, body, contentType, secret, what).thenAccept(d -> deliveries.put(url, d)))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(pushes).join();
        return Map.copyOf(deliveries);
    }

    private CompletableFuture<Delivery> send(String url, String path, String body, String contentType, String secret, String what) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(timeout)
                .header("Content-Type", contentType)
                .header(ServiceDirection.HEADER, secret)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenApply(response -> {
                    if (response.statusCode() / 100 != 2) {
                        log.log(Level.WARNING, "{0} {1} answered {2} to the push of {3}",
                                new Object[] {kind, url, response.statusCode(), what});
                        return Delivery.NOT_ACKNOWLEDGED;
                    }
                    return Delivery.ACKNOWLEDGED;
                })
                .exceptionally(failure -> {
                    log.log(Level.WARNING, "cannot push {0} to {1} {2}: {3}", new Object[] {what, kind, url, failure.toString()});
                    return refused(failure) ? Delivery.NOT_RUNNING : Delivery.NOT_ACKNOWLEDGED;
                });
    }

    /**
     * True when {@code failure} is a refused connection (nothing listens), not a timeout or a reset.
     * A connection attempt that timed out is no refusal: the JDK's {@link HttpConnectTimeoutException}
     * carries a {@link ConnectException} as its cause, and a gate behind a partition looks just so
     * (bench/fanout: the API took such a gate for stopped, did not wait for it, and it served a
     * revoked person from its fresh copy for seconds after the API answered).
     */
    static boolean refused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpConnectTimeoutException) {
                return false;
            }
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }
}
