package dev.qaldy.gate.proxy;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.gate.platform.ControlPlane;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The gate's one HTTP client for passing requests on (issue 15), and the relay every route shares:
 * the client's body streamed up bounded and paced, {@code X-Forwarded-*}, why an exchange failed,
 * what it tells the control plane's health, the answer's body streamed back. Apache HttpClient 5
 * classic over pooled keep-alive HTTP/1.1 connections, on the request thread. No retries,
 * redirects, cookies, decompression or user agent; the caller builds every other header. A connection idle over
 * {@value #VALIDATE_AFTER_IDLE_MS} ms is checked before reuse, so an upstream restart costs a new
 * connection, not a request. {@code @ApplicationScoped}, not {@code @Singleton}: Open Liberty's
 * annotated discovery does not see the latter.
 */
@ApplicationScoped
public class Forwarder {

    static final int VALIDATE_AFTER_IDLE_MS = 1_000;
    /** One buffer per request thread. */
    static final int BUFFER_BYTES = 16 * 1024;
    private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[BUFFER_BYTES]);

    /** Ms. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-connect-timeout-ms", defaultValue = "2000")
    long connectTimeoutMillis;

    /** Per upstream. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-max-connections", defaultValue = "256")
    int maxConnections;

    /** Ms before a body must keep {@link #bodyMinBytesPerSecond} (mod_reqtimeout's 20 s). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.body-grace-ms", defaultValue = "20000")
    long bodyGraceMillis;

    /** Each such many bytes buy one more second (mod_reqtimeout's MinRate=500); 0: no bound. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.body-min-bytes-per-s", defaultValue = "500")
    long bodyMinBytesPerSecond;

    private PoolingHttpClientConnectionManager pool;
    private CloseableHttpClient http;
    private BodyPace pace = BodyPace.NONE;

    public Forwarder() {
    }

    /** For tests: a started forwarder. */
    Forwarder(Duration connectTimeout, int maxConnections) {
        this.connectTimeoutMillis = connectTimeout.toMillis();
        this.maxConnections = maxConnections;
        start();
    }

    @PostConstruct
    void start() {
        if (bodyMinBytesPerSecond > 0) {
            pace = new BodyPace(bodyGraceMillis, bodyMinBytesPerSecond);
        }
        if (maxConnections < 1) {
            throw new IllegalStateException("qaldy.gate.upstream-max-connections must be at least 1: " + maxConnections);
        }
        pool = PoolingHttpClientConnectionManagerBuilder.create()
                // LAX: no pool-wide lock (issue 15: STRICT's lock parked 32 request threads ~740 times in 6 s); bounds per route only.
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
                .setMaxConnTotal(maxConnections * 2)
                .setMaxConnPerRoute(maxConnections)
                .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofMilliseconds(connectTimeoutMillis))
                        .setValidateAfterInactivity(TimeValue.ofMilliseconds(VALIDATE_AFTER_IDLE_MS))
                        .build())
                .build();
        http = HttpClients.custom()
                .setConnectionManager(pool)
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .disableConnectionState()
                .disableDefaultUserAgent()
                .build();
    }

    @PreDestroy
    void stop() {
        if (http != null) {
            http.close(CloseMode.IMMEDIATE);
        }
    }

    /** How long the upstream may stay silent while the gate waits (headers or the next part of the body); made once at start. */
    public static RequestConfig answeringWithin(Duration responseTimeout) {
        return RequestConfig.custom().setResponseTimeout(Timeout.of(responseTimeout)).build();
    }

    /**
     * Sends {@code request}, streaming its entity, and returns the response open for streaming; closing
     * it releases the connection.
     *
     * @throws org.apache.hc.client5.http.ConnectTimeoutException no connection within the connect timeout
     * @throws org.apache.hc.client5.http.HttpHostConnectException the connection was refused
     * @throws java.net.SocketTimeoutException                      no answer within the response timeout
     * @throws IOException                                          any other failure, a cancelled lease included (a 503, never a 500)
     */
    public ClassicHttpResponse open(ClassicHttpRequest request, RequestConfig config) throws IOException {
        // Issue 14 (a 500 in the soak): a MicroProfile @Timeout that fires as its call returns leaves the
        // interrupt set, and the pool's lease then gives up at once. The gate never interrupts: it is stale.
        Thread.interrupted();
        HttpClientContext context = HttpClientContext.create();
        context.setRequestConfig(config);
        try {
            return http.executeOpen(null, request, context);
        } catch (CancellationException e) {
            throw new InterruptedIOException("no connection to the upstream: the connection pool cancelled the lease");
        }
    }

    /** At most {@code limit} bytes (negative: no limit), no slower than the body pace (issue 16). */
    public BoundedInputStream body(InputStream in, long limit) {
        return new BoundedInputStream(in, limit, pace);
    }

    /** The client's body as {@code request}'s entity, streamed with its declared length, else chunked; see {@link #body}. */
    public BoundedInputStream send(HttpServletRequest req, ClassicHttpRequest request, long limit) throws IOException {
        BoundedInputStream body = body(req.getInputStream(), limit);
        long declared = req.getContentLengthLong();
        request.setEntity(new InputStreamEntity(body, declared > 0 ? declared : -1, null));
        return body;
    }

    /** {@code X-Forwarded-For} (the shield's address, {@link ProxyHeaders#forwardedFor}), {@code -Proto}, {@code -Host}. */
    public static void forwarded(HttpServletRequest req, ClassicHttpRequest request) {
        request.addHeader("X-Forwarded-For", ProxyHeaders.forwardedFor(req.getAttribute(ProxyHeaders.CLIENT_ADDRESS), req.getRemoteAddr()));
        request.addHeader("X-Forwarded-Proto", req.getScheme());
        String host = req.getHeader("Host");
        if (host != null) {
            request.addHeader("X-Forwarded-Host", host);
        }
    }

    /** Why {@link #open} failed. */
    public enum Failure {
        /** The client's body went over its bound: 413. */
        BODY_TOO_LARGE,
        /** The client's body came slower than the pace: 408. */
        BODY_TOO_SLOW,
        /** Reading the client's body failed: nobody to answer. */
        CLIENT_GONE,
        /** No answer within the response timeout. */
        SILENT,
        /** No connection, or any other failure of the upstream. */
        UNREACHABLE
    }

    /**
     * The client's body first (its failure says nothing of the upstream), then the upstream's; tells
     * {@code call} (null: not the control plane) a failure to answer, or nothing.
     *
     * @param what for the health view's reason
     */
    public static Failure failure(IOException e, BoundedInputStream body, UpstreamHealth.Call call, String what) {
        Failure failure;
        if (body != null && body.exceeded()) {
            failure = Failure.BODY_TOO_LARGE;
        } else if (body != null && body.tooSlow()) {
            failure = Failure.BODY_TOO_SLOW;
        } else if (body != null && body.clientFailed()) {
            failure = Failure.CLIENT_GONE;
        } else if (e instanceof SocketTimeoutException && !(e instanceof ConnectTimeoutException)) {
            failure = Failure.SILENT;
        } else {
            failure = Failure.UNREACHABLE;
        }
        if (call != null) {
            if (failure == Failure.SILENT || failure == Failure.UNREACHABLE) {
                call.failed(UpstreamHealth.Failure.NO_ANSWER, what + ": " + e);
            } else {
                call.abandoned();
            }
        }
        return failure;
    }

    /** Tells {@code call} (null: none) whether the API itself answered; a 5xx or the server's own page says nothing for everyone. */
    public static void answered(UpstreamHealth.Call call, ClassicHttpResponse response) {
        if (call == null) {
            return;
        }
        Header type = response.getFirstHeader("Content-Type");
        if (ControlPlane.isApiAnswer(response.getCode(), type == null ? null : type.getValue())) {
            call.answered();
        } else {
            call.abandoned();
        }
    }

    /** The answer's body, if any, to the client. */
    public static void streamBack(ClassicHttpResponse response, HttpServletResponse res) throws IOException {
        HttpEntity entity = response.getEntity();
        if (entity != null) {
            try (InputStream in = entity.getContent()) {
                copy(in, res.getOutputStream());
            }
        }
    }

    /** Flushes whenever no more bytes are ready. */
    public static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = BUFFERS.get();
        int n;
        while ((n = in.read(buffer)) != -1) {
            out.write(buffer, 0, n);
            if (in.available() == 0) {
                out.flush();
            }
        }
    }
}
