package dev.qaldy.gate.proxy;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The gate's one HTTP client for passing requests on (issue 15), to the runtime host and to the
 * control plane: Apache HttpClient 5 classic over a pool of keep-alive HTTP/1.1 connections, each
 * exchange run on the request thread that asks (no hand-off to other threads). It adds nothing of
 * its own: no retries (a request is sent once), no redirects, cookies, decompression or user agent;
 * the caller builds every header. A pooled connection idle for more than
 * {@value #VALIDATE_AFTER_IDLE_MS} ms is checked before reuse, so an upstream that closed it (a
 * restart) costs a new connection, not a person's request. Application scoped (one pool for the
 * process; {@code @Singleton} would save the client proxy, but is no bean-defining annotation, and
 * Open Liberty's annotated discovery does not see such a bean).
 */
@ApplicationScoped
public class Forwarder {

    /** Connections idle longer than this (ms) are checked before they are used again. */
    static final int VALIDATE_AFTER_IDLE_MS = 1_000;
    /** Bytes copied at a time between an upstream's body and the client (one buffer per request thread). */
    static final int BUFFER_BYTES = 16 * 1024;
    private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[BUFFER_BYTES]);

    /** How long to wait for a TCP connection upstream, ms. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-connect-timeout-ms", defaultValue = "2000")
    long connectTimeoutMillis;

    /** Most connections kept open to one upstream (the runtime host, the control plane). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-max-connections", defaultValue = "256")
    int maxConnections;

    /** ms a request body may take before it must arrive at {@link #bodyMinBytesPerSecond} (mod_reqtimeout's 20 s). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.body-grace-ms", defaultValue = "20000")
    long bodyGraceMillis;

    /** Bytes a second that give a request body one more second (mod_reqtimeout's MinRate=500); 0: no bound. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.body-min-bytes-per-s", defaultValue = "500")
    long bodyMinBytesPerSecond;

    private PoolingHttpClientConnectionManager pool;
    private CloseableHttpClient http;
    private BodyPace pace = BodyPace.NONE;

    /** A forwarder for the container; {@link #start()} builds its client. */
    public Forwarder() {
    }

    /** For tests: a started forwarder with these bounds. */
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
                // LAX: a pool per route without one lock for all (issue 15: STRICT's lock, taken to lease and to
                // release, parked 32 request threads about 740 times in 6 s); it bounds connections per route only.
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

    /**
     * The per-request settings for answers bounded by {@code responseTimeout}: how long the upstream
     * may stay silent while the gate waits for its response (headers or the next part of the body).
     * Made once by each caller, at start.
     */
    public static RequestConfig answeringWithin(Duration responseTimeout) {
        return RequestConfig.custom().setResponseTimeout(Timeout.of(responseTimeout)).build();
    }

    /**
     * Sends {@code request} (its entity, if any, streamed from the caller's input) and returns the
     * upstream's response open for streaming; closing it releases the connection to the pool (or
     * closes it, when its body was not read to the end). An interrupt set on the calling thread is
     * cleared first: the gate relays on threads it never interrupts, so it is stale.
     *
     * @throws org.apache.hc.client5.http.ConnectTimeoutException no connection within the connect timeout
     * @throws org.apache.hc.client5.http.HttpHostConnectException the connection was refused
     * @throws java.net.SocketTimeoutException                      no answer within the response timeout
     * @throws IOException                                          any other failure, reading the caller's body included,
     *                                                              and a connection lease the pool cancelled (a 503 for the
     *                                                              caller, never a 500)
     */
    public ClassicHttpResponse open(ClassicHttpRequest request, RequestConfig config) throws IOException {
        // Issue 14 (a 500 in the 60-minute soak): the gate never interrupts a thread it relays on, but a
        // MicroProfile @Timeout interrupts its caller's thread, and one that fires as the call returns leaves the
        // interrupt set; the pool's lease then gives up at once (a cancelled lease). Such an interrupt is stale here.
        Thread.interrupted();
        HttpClientContext context = HttpClientContext.create();
        context.setRequestConfig(config);
        try {
            return http.executeOpen(null, request, context);
        } catch (CancellationException e) {
            // Any other cancelled lease: an I/O failure for the caller (a 503), never a 500.
            throw new InterruptedIOException("no connection to the upstream: the connection pool cancelled the lease");
        }
    }

    /**
     * A client's request body to stream upstream: at most {@code limit} bytes (negative: no limit),
     * arriving no slower than the gate's body pace (issue 16: slow clients).
     */
    public BoundedInputStream body(InputStream in, long limit) {
        return new BoundedInputStream(in, limit, pace);
    }

    /** Copies {@code in} to {@code out} with this thread's buffer, flushing whenever no more bytes are ready. */
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
