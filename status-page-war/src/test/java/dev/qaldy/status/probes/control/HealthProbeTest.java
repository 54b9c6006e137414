package dev.qaldy.status.probes.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Real readiness requests: an answer, a refused connection, and a process that accepts but never answers. */
class HealthProbeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(600);

    private final HealthProbe probe = new HealthProbe(HealthProbe.client(TIMEOUT).build(), TIMEOUT);
    private HttpServer server;
    private ServerSocket silent;
    private final List<Socket> held = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.stop(0);
        }
        if (silent != null) {
            silent.close();
        }
        for (Socket socket : held) {
            socket.close();
        }
    }

    @Test
    void anAnswerComesBackWithStatusBodyAndLatency() {
        server = server(503, "{\"status\":\"DOWN\"}");

        HttpOutcome outcome = probe.probe(url(server.getAddress().getPort())).join();

        assertThat(outcome.answered()).isTrue();
        assertThat(outcome.status()).isEqualTo(503);
        assertThat(outcome.body()).isEqualTo("{\"status\":\"DOWN\"}");
        assertThat(outcome.latencyMs()).isBetween(0L, 5_000L);
    }

    @Test
    void aClosedPortIsRefused() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }

        HttpOutcome outcome = probe.probe(url(port)).join();

        assertThat(outcome.answered()).isFalse();
        assertThat(outcome.failure()).isEqualTo("connection refused");
    }

    @Test
    void aProcessThatNeverAnswersCostsTheTimeout() throws IOException {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    held.add(silent.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();

        long start = System.nanoTime();
        HttpOutcome outcome = probe.probe(url(silent.getLocalPort())).join();
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(outcome.answered()).isFalse();
        assertThat(outcome.failure()).isEqualTo("no answer within 600 ms");
        assertThat(ms).isBetween(500L, 3_000L);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new ConnectException(), "connection refused"),
                Arguments.of(new CompletionException(new ConnectException("x")), "connection refused"),
                Arguments.of(new HttpConnectTimeoutException("x"), "no connection within 2 s"),
                Arguments.of(new HttpTimeoutException("x"), "no answer within 2 s"),
                Arguments.of(new CompletionException(new TimeoutException()), "no answer within 2 s"),
                Arguments.of(new IOException("connection reset"), "connection failed (connection reset)"),
                Arguments.of(new IllegalArgumentException("bad"), "IllegalArgumentException: bad"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("failures")
    void failuresInPlainWords(Throwable error, String words) {
        assertThat(HealthProbe.describe(error, Duration.ofSeconds(2))).isEqualTo(words);
    }

    private static URI url(int port) {
        return URI.create("http://127.0.0.1:" + port + "/health/ready");
    }

    private static HttpServer server(int status, String body) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/health/ready", exchange -> {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
