package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;
import dev.qaldy.runtime.bundles.control.DataCentreCache;
import dev.qaldy.runtime.bundles.control.LiveVersions;
import dev.qaldy.runtime.bundles.control.NotPublishedException;
import dev.qaldy.runtime.bundles.control.UnexpectedAnswerException;
import dev.qaldy.runtime.bundles.entity.CodeSource;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.bundles.entity.Sourced;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.FakeControlPlane;
import dev.qaldy.runtime.testing.MovableClock;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import dev.qaldy.runtime.testing.TestHealth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live-version rule: freshness window, then ask; memory and the sealed record only when asking fails. */
class LiveVersionsTest {

    static final String LIVE = "/api/v1/internal/apps/guestbook/live";
    static final Duration FRESHNESS = Duration.ofSeconds(5);
    static final Duration MEMORY = Duration.ofMinutes(30);
    final KeyPair cell = TestBundles.keys();
    final FakeControlPlane api = new FakeControlPlane();
    final MovableClock clock = new MovableClock(TestBundles.NOW);
    final Logger log = Logger.getLogger(LiveVersionsTest.class.getName());
    final byte[] zip1 = TestBundles.zip(Map.of("public/index.html", "v1"));
    final byte[] zip2 = TestBundles.zip(Map.of("public/index.html", "v2"));
    LiveVersion v1;
    LiveVersion v2;
    @TempDir
    Path dir;
    CellCredentials credentials;
    LiveVersions live;

    @BeforeEach
    void start() {
        credentials = TestCredentials.write(dir, cell);
        v1 = TestBundles.live("guestbook", 1, zip1, cell);
        v2 = TestBundles.live("guestbook", 2, zip2, cell);
        live = host(api.url());
    }

    LiveVersions host(String url) {
        return host(url, TestHealth.probing(url));
    }

    LiveVersions host(String url, UpstreamHealth health) {
        ControlPlaneClient client = new ControlPlaneClient(url, Duration.ofMillis(500), Duration.ofSeconds(2),
                1024 * 1024, credentials, health);
        DataCentreCache cache = new DataCentreCache(dir.resolve("dc-cache"), dir.resolve("runtime-live"), 1L << 30, 1024 * 1024, credentials, clock, log);
        return new LiveVersions(client, cache, FRESHNESS, MEMORY, clock, log);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void within_the_freshness_window_the_last_answer_is_used_without_asking() {
        api.publish(v1, zip1);
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v1, CodeSource.API));
        api.publish(v2, zip2);
        clock.advance(Duration.ofMillis(4_999));
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v1, CodeSource.API));
        assertThat(api.count(LIVE)).isEqualTo(1);

        clock.advance(Duration.ofMillis(1));
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v2, CodeSource.API));
        assertThat(api.count(LIVE)).isEqualTo(2);
    }

    @Test
    void when_the_api_fails_the_last_answer_stands_in_for_at_most_30_minutes_after_it() {
        api.publish(v1, zip1);
        live.live("guestbook");
        api.down(503);
        clock.advance(Duration.ofSeconds(6));
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v1, CodeSource.MEMORY));
        clock.advance(MEMORY.minusSeconds(6));
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v1, CodeSource.MEMORY));
        clock.advance(Duration.ofMillis(1));
        assertThatThrownBy(() -> live.live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void while_the_view_is_in_doubt_a_held_version_answers_without_asking_and_an_app_with_nothing_held_asks() {
        // no prober: the view stays in doubt until an answer comes (issue 14: nobody on a copy waits then)
        UpstreamHealth view = UpstreamHealth.controlPlane(api.url(), Duration.ofMillis(50), Duration.ZERO, Duration.ofMillis(500),
                java.time.Clock.systemUTC(), log);
        LiveVersions host = host(api.url(), view);
        LiveVersion notes = TestBundles.live("notes", 1, zip1, cell);
        api.publish(v1, zip1).publish(notes, zip1);
        host.live("guestbook");
        view.call().failed(UpstreamHealth.Failure.NO_ANSWER, "a call got no answer within 2 s");
        assertThat(view.inDoubt()).isTrue();

        clock.advance(Duration.ofSeconds(6)); // past freshness: it would ask
        assertThat(host.live("guestbook")).isEqualTo(new Sourced<>(v1, CodeSource.MEMORY));
        assertThat(api.count(LIVE)).as("not asked while in doubt").isEqualTo(1);
        assertThat(host.live("notes")).as("nothing held: asked all the same").isEqualTo(new Sourced<>(notes, CodeSource.API));
        assertThat(view.inDoubt()).as("its answer cleared the doubt").isFalse();
        assertThat(host.live("guestbook").source()).isEqualTo(CodeSource.API);
        assertThat(api.count(LIVE)).isEqualTo(2);
    }

    @Test
    void a_connection_error_is_an_outage_too() {
        FakeControlPlane other = new FakeControlPlane();
        String url = other.url();
        other.publish(v1, zip1);
        LiveVersions host = host(url);
        host.live("guestbook");
        other.close();
        clock.advance(Duration.ofSeconds(6));
        assertThat(host.live("guestbook")).isEqualTo(new Sourced<>(v1, CodeSource.MEMORY));
    }

    @Test
    void a_failure_is_fresh_for_the_window_too_and_the_next_answer_replaces_the_memory() {
        api.publish(v1, zip1);
        live.live("guestbook");
        api.down(500);
        clock.advance(Duration.ofSeconds(5));
        assertThat(live.live("guestbook").source()).isEqualTo(CodeSource.MEMORY);
        long asked = api.count(LIVE);
        clock.advance(Duration.ofSeconds(4));
        assertThat(live.live("guestbook").source()).isEqualTo(CodeSource.MEMORY);
        assertThat(api.count(LIVE)).isEqualTo(asked);

        api.up().publish(v2, zip2);
        clock.advance(Duration.ofSeconds(1));
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v2, CodeSource.API));
        api.down(503);
        clock.advance(Duration.ofSeconds(5));
        assertThat(live.live("guestbook")).isEqualTo(new Sourced<>(v2, CodeSource.MEMORY));
    }

    @Test
    void a_404_replaces_the_memory_and_a_later_outage_does_not_bring_the_version_back() {
        api.publish(v1, zip1);
        live.live("guestbook");
        api.forget(LIVE);
        clock.advance(FRESHNESS);
        assertThatThrownBy(() -> live.live("guestbook")).isInstanceOf(NotPublishedException.class);
        assertThat(dir.resolve("dc-cache/guestbook.live")).doesNotExist();
        api.down(503);
        clock.advance(FRESHNESS);
        // Never the old version; and no 404 either, since a version may have gone live since (issue 14).
        assertThatThrownBy(() -> live.live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class)
                .hasMessageContaining("said last");
    }

    @Test
    void an_answer_outside_the_contract_is_not_an_outage() {
        api.publish(v1, zip1);
        live.live("guestbook");
        api.down(401);
        clock.advance(FRESHNESS);
        assertThatThrownBy(() -> live.live("guestbook")).isInstanceOf(UnexpectedAnswerException.class);
    }

    @Test
    void a_host_with_empty_memory_uses_the_sealed_record_only_while_the_api_cannot_be_asked() {
        api.publish(v1, zip1);
        live.live("guestbook");
        assertThat(dir.resolve("dc-cache/guestbook.live")).exists();

        api.publish(v2, zip2);
        assertThat(host(api.url()).live("guestbook")).isEqualTo(new Sourced<>(v2, CodeSource.API));

        api.down(503);
        clock.advance(Duration.ofMinutes(1));
        // The record now says v2: the newest answer the data centre learned.
        assertThat(host(api.url()).live("guestbook")).isEqualTo(new Sourced<>(v2, CodeSource.DC_COPY));
        clock.advance(MEMORY);
        assertThatThrownBy(() -> host(api.url()).live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void without_memory_or_record_an_outage_is_503_never_404() throws Exception {
        api.down(503);
        assertThatThrownBy(() -> live.live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
        api.up().publish(v1, zip1);
        host(api.url()).live("guestbook");
        Files.delete(dir.resolve("dc-cache/guestbook.live"));
        api.down(503);
        assertThatThrownBy(() -> host(api.url()).live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void a_forged_record_is_not_kept_and_the_app_gets_503() throws Exception {
        LiveVersion forged = TestBundles.live("guestbook", 1, zip1, TestBundles.keys());
        api.publish(forged, zip1);
        live.live("guestbook");
        assertThat(dir.resolve("dc-cache/guestbook.live")).doesNotExist();
        api.down(503);
        assertThatThrownBy(() -> host(api.url()).live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void a_deleted_apps_tombstone_ends_serving_on_a_host_restarted_in_an_outage() throws Exception {
        api.publish(v1, zip1);
        live.live("guestbook");
        byte[] v1Record = Files.readAllBytes(dir.resolve("dc-cache/guestbook.live"));
        api.unpublish("guestbook", TestBundles.tombstone("guestbook", 2, cell));
        clock.advance(FRESHNESS);
        assertThatThrownBy(() -> live.live("guestbook")).isInstanceOf(NotPublishedException.class);
        assertThat(dir.resolve("dc-cache/guestbook.live")).content().contains("qaldy-live/2");

        api.down(503);
        assertThatThrownBy(() -> host(api.url()).live("guestbook")).isInstanceOf(ControlPlaneUnavailableException.class)
                .hasMessageContaining("nothing live");
        Files.write(dir.resolve("dc-cache/guestbook.live"), v1Record);
        assertThatThrownBy(() -> host(api.url()).live("guestbook")).as("v1's record written back: older than the tombstone")
                .isInstanceOf(ControlPlaneUnavailableException.class);
        assertThat(dir.resolve("dc-cache/guestbook.live")).doesNotExist();
    }
}
