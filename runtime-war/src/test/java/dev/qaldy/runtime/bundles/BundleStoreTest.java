package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.runtime.bundles.control.BundleRefusedException;
import dev.qaldy.runtime.bundles.control.BundleStore;
import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.bundles.control.ControlPlaneUnavailableException;
import dev.qaldy.runtime.bundles.control.DataCentreCache;
import dev.qaldy.runtime.bundles.control.NotPublishedException;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.CodeSource;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.bundles.entity.Sourced;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.FakeControlPlane;
import dev.qaldy.runtime.testing.FakeControlPlane.Reply;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import dev.qaldy.runtime.testing.TestHealth;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleStoreTest {

    static final String BUNDLE_V1 = "/api/v1/internal/apps/guestbook/versions/1/bundle";
    final KeyPair cell = TestBundles.keys();
    final byte[] zip = TestBundles.zip(Map.of("public/index.html", "<h1>v1</h1>", "server.js", "//"));
    final FakeControlPlane api = new FakeControlPlane();
    @TempDir
    Path dir;
    BundleStore store;

    @BeforeEach
    void start() {
        store = storeWithMemory(1024 * 1024);
    }

    BundleStore storeWithMemory(long bytes) {
        CellCredentials credentials = TestCredentials.write(dir, cell);
        ControlPlaneClient client = new ControlPlaneClient(api.url(), Duration.ofSeconds(2), Duration.ofSeconds(2),
                1024 * 1024, credentials, TestHealth.probing(api.url()));
        Clock clock = Clock.fixed(TestBundles.NOW, ZoneOffset.UTC);
        Logger log = Logger.getLogger(BundleStoreTest.class.getName());
        return new BundleStore(bytes, client, new DataCentreCache(dir.resolve("dc-cache"), dir.resolve("runtime-live"), 1L << 30, 1024 * 1024,
                credentials, clock, log), credentials, clock, log);
    }

    static Sourced<LiveVersion> fromApi(LiveVersion live) {
        return new Sourced<>(live, CodeSource.API);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void a_verified_bundle_is_fetched_once_and_then_served_from_memory() throws Exception {
        api.reply(BUNDLE_V1, Reply.zip(zip));
        LiveVersion live = TestBundles.live("guestbook", 1, zip, cell);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Bundle>> loads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                loads.add(pool.submit(() -> store.bundle(fromApi(live)).value()));
            }
            Bundle first = loads.get(0).get();
            for (Future<Bundle> load : loads) {
                assertThat(load.get()).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.bundle(fromApi(live)).value().file("public/index.html").orElseThrow().text()).isEqualTo("<h1>v1</h1>");
        assertThat(api.count(BUNDLE_V1)).isEqualTo(1);
        assertThat(store.heldBytes()).isPositive();
    }

    @Test
    void a_tampered_bundle_is_refused_and_not_remembered() {
        byte[] tampered = zip.clone();
        tampered[tampered.length / 2] ^= 1;
        api.reply(BUNDLE_V1, Reply.zip(tampered));
        LiveVersion live = TestBundles.live("guestbook", 1, zip, cell);
        assertThatThrownBy(() -> store.bundle(fromApi(live)).value()).isInstanceOf(BundleRefusedException.class);
        api.reply(BUNDLE_V1, Reply.zip(zip));
        assertThat(store.bundle(fromApi(live)).value().key().version()).isEqualTo(1);
        assertThat(api.count(BUNDLE_V1)).isEqualTo(2);
    }

    @Test
    void a_bundle_sealed_by_another_key_is_refused() {
        api.reply(BUNDLE_V1, Reply.zip(zip));
        LiveVersion forged = TestBundles.live("guestbook", 1, zip, TestBundles.keys());
        assertThatThrownBy(() -> store.bundle(fromApi(forged))).isInstanceOf(BundleRefusedException.class);
    }

    @Test
    void an_unreachable_control_plane_is_an_outage_not_a_refusal() {
        LiveVersion live = TestBundles.live("guestbook", 1, zip, cell);
        api.reply(BUNDLE_V1, Reply.json(502, "{}"));
        assertThatThrownBy(() -> store.bundle(fromApi(live)).value()).isInstanceOf(ControlPlaneUnavailableException.class);
    }

    @Test
    void memory_is_bounded_by_bytes() {
        BundleStore small = storeWithMemory(4_000);
        for (int v = 1; v <= 5; v++) {
            byte[] big = TestBundles.zip(Map.of("public/index.html", "v" + v + "x".repeat(2_000)));
            api.reply("/api/v1/internal/apps/guestbook/versions/" + v + "/bundle", Reply.zip(big));
            small.bundle(fromApi(TestBundles.live("guestbook", v, big, cell)));
        }
        assertThat(small.heldBytes()).isLessThanOrEqualTo(4_000);
    }

    @Test
    void a_verified_fetch_leaves_a_sealed_copy_and_a_refused_one_leaves_none() {
        byte[] tampered = zip.clone();
        tampered[tampered.length / 2] ^= 1;
        api.reply(BUNDLE_V1, Reply.zip(tampered));
        LiveVersion live = TestBundles.live("guestbook", 1, zip, cell);
        assertThatThrownBy(() -> store.bundle(fromApi(live))).isInstanceOf(BundleRefusedException.class);
        assertThat(dir.resolve("dc-cache/guestbook.v1.bundle")).doesNotExist();

        api.reply(BUNDLE_V1, Reply.zip(zip));
        assertThat(store.bundle(fromApi(live)).source()).isEqualTo(CodeSource.API);
        assertThat(dir.resolve("dc-cache/guestbook.v1.bundle")).exists();
    }

    @Test
    void the_copy_is_read_only_when_the_bundle_cannot_be_fetched() {
        LiveVersion live = TestBundles.live("guestbook", 1, zip, cell);
        api.reply(BUNDLE_V1, Reply.zip(zip));
        store.bundle(fromApi(live));

        api.reply(BUNDLE_V1, Reply.json(404, "{}"));
        BundleStore restarted = storeWithMemory(1024 * 1024);
        assertThatThrownBy(() -> restarted.bundle(fromApi(live))).isInstanceOf(NotPublishedException.class);

        api.reply(BUNDLE_V1, Reply.json(503, "{}"));
        Sourced<Bundle> fromCopy = restarted.bundle(fromApi(live));
        assertThat(fromCopy.source()).isEqualTo(CodeSource.DC_COPY);
        assertThat(fromCopy.value().file("public/index.html").orElseThrow().text()).isEqualTo("<h1>v1</h1>");
        // In memory now: the same bundle, with the live answer's source.
        assertThat(restarted.bundle(new Sourced<>(live, CodeSource.MEMORY)).source()).isEqualTo(CodeSource.MEMORY);
    }

    @Test
    void in_an_outage_the_bundle_comes_from_the_copy_without_asking() {
        LiveVersion live = TestBundles.live("guestbook", 1, zip, cell);
        api.reply(BUNDLE_V1, Reply.zip(zip));
        store.bundle(fromApi(live));
        BundleStore restarted = storeWithMemory(1024 * 1024);
        assertThat(restarted.bundle(new Sourced<>(live, CodeSource.DC_COPY)).source()).isEqualTo(CodeSource.DC_COPY);
        assertThat(api.count(BUNDLE_V1)).isEqualTo(1);

        LiveVersion v2 = TestBundles.live("guestbook", 2, zip, cell);
        assertThatThrownBy(() -> restarted.bundle(new Sourced<>(v2, CodeSource.MEMORY)))
                .isInstanceOf(ControlPlaneUnavailableException.class);
        assertThat(api.calls).doesNotContain("/api/v1/internal/apps/guestbook/versions/2/bundle");
    }
}
