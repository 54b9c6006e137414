package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** How a push to an instance that did not take it is read: stopped (nothing listens) or maybe holding what it knew. */
class CellPushTest {

    private static final Logger LOG = Logger.getLogger(CellPushTest.class.getName());

    @Test
    void a_closed_port_is_an_instance_not_running() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        assertThat(push(port)).isEqualTo(CellPush.Delivery.NOT_RUNNING);
    }

    /**
     * A listener whose accept queue is full drops new connection attempts, as a partition loses them:
     * the JDK's connect timeout carries a ConnectException as its cause, and it is no refusal (before,
     * the API took a partitioned gate for a stopped one and did not wait for it to learn a revocation).
     */
    @Test
    void a_connection_attempt_that_times_out_is_not_taken_for_a_stopped_instance() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> filling = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) { // never accepted: the queue fills, later SYNs are dropped
                    Socket s = new Socket();
                    try {
                        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort()), 300);
                    } catch (java.io.IOException e) {
                        // the queue is already full: this one's SYN was dropped too
                    }
                    filling.add(s);
                }
                assertThat(push(full.getLocalPort())).isEqualTo(CellPush.Delivery.NOT_ACKNOWLEDGED);
            } finally {
                for (Socket s : filling) {
                    s.close();
                }
            }
        }
    }

    @Test
    void a_connect_timeout_in_any_wrapping_is_no_refusal_and_a_bare_connect_exception_is() {
        var timedOut = new java.net.http.HttpConnectTimeoutException("HTTP connect timed out");
        timedOut.initCause(new java.net.ConnectException("HTTP connect timed out"));
        assertThat(CellPush.refused(new java.util.concurrent.CompletionException(timedOut))).isFalse();
        assertThat(CellPush.refused(new java.util.concurrent.CompletionException(new java.net.ConnectException()))).isTrue();
        assertThat(CellPush.refused(new java.io.IOException("reset"))).isFalse();
    }

    private static CellPush.Delivery push(int port) {
        String url = "http://127.0.0.1:" + port;
        Map<String, CellPush.Delivery> took = new CellPush("gate", List.of(url), () -> "a-credential-of-16-chars",
                Duration.ofSeconds(5), LOG).post("/.qaldy/internal/sharing", "{}", "application/json", "a test push");
        return took.get(url);
    }
}
