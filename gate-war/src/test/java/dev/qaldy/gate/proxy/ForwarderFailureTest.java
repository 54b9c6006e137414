package dev.qaldy.gate.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.health.UpstreamHealth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.junit.jupiter.api.Test;

/** Why an exchange failed, for every route: the client's body first, then the upstream; and what it tells the health view. */
class ForwarderFailureTest {

    static BoundedInputStream readUntilItFails(InputStream in, long limit, BodyPace pace) {
        BoundedInputStream body = new BoundedInputStream(in, limit, pace);
        assertThatThrownBy(() -> body.read(new byte[64], 0, 64)).isInstanceOf(IOException.class);
        return body;
    }

    static BoundedInputStream overTheBound() {
        return readUntilItFails(new ByteArrayInputStream(new byte[64]), 10, BodyPace.NONE);
    }

    /** One byte after 5 ms, where the pace allows none later than 0 ms. */
    static BoundedInputStream tooSlow() {
        return readUntilItFails(new InputStream() {
            @Override
            public int read() {
                return 1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                b[off] = 1;
                return 1;
            }
        }, -1, new BodyPace(0, 1_000_000));
    }

    static BoundedInputStream clientGone(IOException how) {
        return readUntilItFails(new InputStream() {
            @Override
            public int read() throws IOException {
                throw how;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw how;
            }
        }, -1, BodyPace.NONE);
    }

    static UpstreamHealth view() {
        return new UpstreamHealth("control plane", Clock.systemUTC(), Duration.ofSeconds(1), () -> { }, Logger.getAnonymousLogger());
    }

    @Test
    void the_upstreams_failures_without_a_body_failure() {
        assertThat(Forwarder.failure(new SocketTimeoutException("read timed out"), null, null, "t")).isEqualTo(Forwarder.Failure.SILENT);
        assertThat(Forwarder.failure(new ConnectTimeoutException("connect timed out"), null, null, "t"))
                .as("a connect timeout is a SocketTimeoutException too, and no connection").isEqualTo(Forwarder.Failure.UNREACHABLE);
        assertThat(Forwarder.failure(new HttpHostConnectException("refused"), null, null, "t")).isEqualTo(Forwarder.Failure.UNREACHABLE);
        assertThat(Forwarder.failure(new IOException("reset"), null, null, "t")).isEqualTo(Forwarder.Failure.UNREACHABLE);
        BoundedInputStream whole = new BoundedInputStream(new ByteArrayInputStream(new byte[4]), 10, BodyPace.NONE);
        assertThat(Forwarder.failure(new SocketTimeoutException("read timed out"), whole, null, "t")).isEqualTo(Forwarder.Failure.SILENT);
    }

    @Test
    void the_clients_body_comes_first() {
        assertThat(Forwarder.failure(new IOException("request body over 10 bytes"), overTheBound(), null, "t"))
                .isEqualTo(Forwarder.Failure.BODY_TOO_LARGE);
        assertThat(Forwarder.failure(new IOException("request body slower"), tooSlow(), null, "t")).isEqualTo(Forwarder.Failure.BODY_TOO_SLOW);
        assertThat(Forwarder.failure(new ConnectException("gone"), clientGone(new ConnectException("gone")), null, "t"))
                .isEqualTo(Forwarder.Failure.CLIENT_GONE);
        SocketTimeoutException idle = new SocketTimeoutException("the client was idle");
        assertThat(Forwarder.failure(idle, clientGone(idle), null, "t"))
                .as("the client's own read timing out says nothing of the upstream").isEqualTo(Forwarder.Failure.CLIENT_GONE);
    }

    @Test
    void only_the_upstreams_failures_tell_the_view() {
        UpstreamHealth quiet = view();
        Forwarder.failure(new IOException("request body over 10 bytes"), overTheBound(), quiet.call(), "t");
        Forwarder.failure(new ConnectException("gone"), clientGone(new ConnectException("gone")), quiet.call(), "t");
        assertThat(quiet.inDoubt()).isFalse();

        UpstreamHealth doubted = view();
        Forwarder.failure(new SocketTimeoutException("read timed out"), null, doubted.call(), "API proxy");
        assertThat(doubted.inDoubt()).isTrue();
        assertThat(doubted.view().reason()).startsWith("API proxy: ");
    }
}
