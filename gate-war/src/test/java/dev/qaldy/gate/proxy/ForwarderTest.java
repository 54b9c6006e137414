package dev.qaldy.gate.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The forwarder against a real HTTP server on loopback: what it sends, that it keeps connections, how it fails. */
class ForwarderTest {

    HttpServer server;
    Forwarder forwarder;
    String base;
    final List<Map<String, List<String>>> seen = new CopyOnWriteArrayList<>();
    final Map<String, Boolean> peers = new ConcurrentHashMap<>();
    final AtomicInteger hits = new AtomicInteger();
    final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/echo", ex -> {
            hits.incrementAndGet();
            seen.add(Map.copyOf(ex.getRequestHeaders()));
            peers.put(ex.getRemoteAddress().toString(), true);
            byte[] body = ex.getRequestBody().readAllBytes();
            byte[] answer = ("got " + body.length + " bytes").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        server.createContext("/hang", ex -> {
            hits.incrementAndGet();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        forwarder = new Forwarder(Duration.ofSeconds(2), 8);
    }

    @AfterEach
    void stop() {
        release.countDown();
        forwarder.stop();
        server.stop(0);
    }

    @Test
    void it_sends_the_callers_headers_and_body_and_adds_no_user_agent_or_encoding_of_its_own() throws Exception {
        ClassicHttpRequest request = new BasicClassicHttpRequest("POST", URI.create(base + "/echo?x=1"));
        request.addHeader("X-Forwarded-For", "192.0.2.1");
        byte[] body = "twelve bytes".getBytes(StandardCharsets.UTF_8);
        request.setEntity(new InputStreamEntity(new ByteArrayInputStream(body), body.length, null));
        try (ClassicHttpResponse response = forwarder.open(request, Forwarder.answeringWithin(Duration.ofSeconds(5)))) {
            assertThat(response.getCode()).isEqualTo(200);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Forwarder.copy(response.getEntity().getContent(), out);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("got 12 bytes");
        }
        Map<String, List<String>> headers = seen.get(0);
        assertThat(headers.get("X-forwarded-for")).containsExactly("192.0.2.1");
        assertThat(headers).doesNotContainKeys("User-agent", "Accept-encoding", "Expect");
        assertThat(headers.get("Content-length")).containsExactly("12");
    }

    @Test
    void it_keeps_a_connection_open_for_the_next_request() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (ClassicHttpResponse response = forwarder.open(new BasicClassicHttpRequest("GET", URI.create(base + "/echo")),
                    Forwarder.answeringWithin(Duration.ofSeconds(5)))) {
                Forwarder.copy(response.getEntity().getContent(), new ByteArrayOutputStream());
            }
        }
        assertThat(hits).hasValue(3);
        assertThat(peers).as("one keep-alive connection for three sequential requests").hasSize(1);
    }

    @Test
    void a_silent_upstream_ends_in_a_timeout_and_is_asked_once() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> forwarder.open(new BasicClassicHttpRequest("GET", URI.create(base + "/hang")),
                Forwarder.answeringWithin(Duration.ofMillis(300)))).isInstanceOf(SocketTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(hits).as("no retry").hasValue(1);
    }

    @Test
    void a_closed_port_is_a_refused_connection() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        assertThatThrownBy(() -> forwarder.open(new BasicClassicHttpRequest("GET", URI.create("http://127.0.0.1:" + closed + "/")),
                Forwarder.answeringWithin(Duration.ofSeconds(1)))).isInstanceOf(HttpHostConnectException.class);
    }
    @Test
    void an_interrupt_an_earlier_timeout_left_on_the_thread_does_not_fail_the_next_request() throws Exception {
        // Issue 14, the 60-minute soak: a gate answered 500 (a CancellationException from the connection lease).
        // A MicroProfile @Timeout interrupts the caller's thread; one that fires as the call returns leaves the
        // interrupt set, and the pool's lease gives up on an interrupted thread before it looks for a connection.
        Thread.currentThread().interrupt();
        int status;
        try (ClassicHttpResponse response = forwarder.open(new BasicClassicHttpRequest("GET", URI.create(base + "/echo")),
                Forwarder.answeringWithin(Duration.ofSeconds(5)))) {
            status = response.getCode();
        } catch (IOException | RuntimeException e) {
            Thread.interrupted(); // JUnit's thread goes on to the next test clean
            throw e;
        }
        assertThat(status).isEqualTo(200);
        assertThat(Thread.interrupted()).as("the stale interrupt was cleared, not carried to the next request").isFalse();
        assertThat(hits).hasValue(1);
    }
}
