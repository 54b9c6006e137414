package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;
import dev.qaldy.runtime.bundles.control.NotPublishedException;
import dev.qaldy.runtime.bundles.control.UnexpectedAnswerException;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.FakeControlPlane;
import dev.qaldy.runtime.testing.FakeControlPlane.Reply;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import dev.qaldy.runtime.testing.TestHealth;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneClientTest {

    static final String LIVE = "/api/v1/internal/apps/guestbook/live";
    static final Duration TIMEOUT = Duration.ofMillis(500);

    @TempDir
    Path dir;
    final FakeControlPlane api = new FakeControlPlane();

    @AfterEach
    void stop() {
        api.close();
    }

    ControlPlaneClient client(String url, long maxBundleBytes) {
        CellCredentials credentials = TestCredentials.write(dir, TestBundles.keys());
        return new ControlPlaneClient(url, TIMEOUT, TIMEOUT, maxBundleBytes, credentials, TestHealth.probing(url));
    }

    ControlPlaneClient client() {
        return client(api.url(), 1024 * 1024);
    }

    @Test
    void a_live_answer_is_read_and_the_service_token_is_sent() {
        api.reply(LIVE, Reply.json(200, "{\"app\":\"guestbook\",\"version\":4,\"sha256\":\"" + "a".repeat(64)
                + "\",\"seal\":\"x.y.z\"}"));
        LiveVersion live = client().live("guestbook");
        assertThat(live).isEqualTo(new LiveVersion("guestbook", 4, "a".repeat(64), "x.y.z"));
        assertThat(api.tokens).containsExactly(TestCredentials.TO_CONTROL);
    }

    @Test
    void a_404_means_not_published() {
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(NotPublishedException.class);
        assertThatThrownBy(() -> client().bundle(new BundleKey("guestbook", 1))).isInstanceOf(NotPublishedException.class);
    }

    /**
     * Found by the soak (issue 14): a control plane whose application is not deployed yet answers
     * every path with its server's own page; that is no "not published" but a control plane that
     * cannot be asked.
     */
    @Test
    void a_4xx_without_the_apis_problem_json_means_unavailable() {
        api.reply(LIVE, Reply.page(404, "<html><body><h1>HTTP Status 404 - Not Found</h1></body></html>"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class)
                .hasMessageContaining("without the API's problem JSON");
        api.reply("/api/v1/internal/apps/guestbook/versions/1/bundle", Reply.page(403, "<h1>HTTP Status 403 - Forbidden</h1>"));
        assertThatThrownBy(() -> client().bundle(new BundleKey("guestbook", 1))).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void a_5xx_means_unavailable() {
        api.reply(LIVE, Reply.json(500, "{}"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
        api.reply(LIVE, Reply.json(503, "{}"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void a_refused_connection_means_unavailable() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ControlPlaneClient closed = client("http://127.0.0.1:" + port, 1024);
        assertThatThrownBy(() -> closed.live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void a_hanging_control_plane_means_unavailable_within_the_timeout() {
        api.reply(LIVE, Reply.hanging());
        long start = System.nanoTime();
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.multipliedBy(4));
    }

    @Test
    void other_answers_are_unexpected_not_an_outage() {
        api.reply(LIVE, Reply.json(401, "{}"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(UnexpectedAnswerException.class);
        api.reply(LIVE, Reply.json(200, "{\"app\":\"other\",\"version\":1,\"sha256\":\"" + "a".repeat(64) + "\",\"seal\":\"s\"}"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(UnexpectedAnswerException.class);
        api.reply(LIVE, Reply.json(200, "not json"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(UnexpectedAnswerException.class);
        api.reply(LIVE, Reply.json(200, "{\"app\":\"guestbook\"}"));
        assertThatThrownBy(() -> client().live("guestbook")).isInstanceOf(UnexpectedAnswerException.class);
    }

    @Test
    void a_bundle_is_fetched_whole_and_one_over_the_bound_is_refused() {
        byte[] zip = TestBundles.zip(Map.of("public/index.html", "x".repeat(5000)));
        api.reply("/api/v1/internal/apps/guestbook/versions/2/bundle", Reply.zip(zip));
        assertThat(client().bundle(new BundleKey("guestbook", 2))).isEqualTo(zip);
        ControlPlaneClient small = client(api.url(), 100);
        assertThatThrownBy(() -> small.bundle(new BundleKey("guestbook", 2))).isInstanceOf(UnexpectedAnswerException.class);
    }
}
