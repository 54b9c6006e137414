package dev.qaldy.gate.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.hooks.HookSignature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.UUID;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The durable queue: on disk before the answer, in order, bounded, deduplicated. */
class EdgeQueueTest {

    static final Logger LOG = Logger.getLogger(EdgeQueueTest.class.getName());
    static final EdgeQueue.Limits ROOMY = new EdgeQueue.Limits(100, 1_000_000, 1000, 10_000_000);
    static final EdgeQueue.Limits ROOMY_FOR_CRASHES = new EdgeQueue.Limits(1_000_000, 1L << 40, 1_000_000, 1L << 40);
    static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

    @TempDir
    Path dir;

    static QueuedDelivery delivery(String app, String hook, String key, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new QueuedDelivery(UUID.randomUUID().toString(), app, hook, NOW, HookSignature.sign("s", NOW.getEpochSecond(), bytes), key,
                "application/json", bytes);
    }

    @Test
    void what_was_queued_is_there_after_a_reopen_in_order_of_receipt() throws Exception {
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            queue.append(delivery("memo", "a", "k1", "{\"n\":1}"));
            queue.append(delivery("memo", "b", null, "{\"n\":2}"));
            queue.append(delivery("memo", "a", "k3", "{\"n\":3}"));
        }
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            assertThat(queue.count()).isEqualTo(3);
            assertThat(queue.head(10)).extracting(e -> new String(e.delivery().body(), StandardCharsets.UTF_8))
                    .containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
            assertThat(queue.holds("memo", "a")).isTrue();
            assertThat(queue.holds("memo", "c")).isFalse();
            queue.remove(queue.head(1).get(0).position());
        }
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            assertThat(queue.head(10)).extracting(e -> e.delivery().idempotencyKey()).containsExactly(null, "k3");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(EdgeQueue.FILE)))).isEqualTo("rw-------");
    }

    /**
     * A gate killed or stopped, round after round, keeps its queue: a round ends with a clean close, or
     * with a crash image (the queue's files copied while it is open, as a SIGKILL leaves them; the next
     * round opens the copy). H2's MVStore, the queue's first store, failed this at once ("Double mark"
     * on opening a file it had closed cleanly after a crash), as it failed in EdgeWebhooksIT's cell.
     */
    @Test
    void the_queue_opens_again_after_rounds_of_appends_hand_overs_kills_and_stops() throws Exception {
        java.util.Random random = new java.util.Random(17);
        java.util.Deque<String> model = new java.util.ArrayDeque<>();
        Path at = dir.resolve("round-0");
        int n = 0;
        for (int round = 0; round < 60; round++) {
            EdgeQueue queue = new EdgeQueue(at, ROOMY_FOR_CRASHES, LOG);
            try {
                assertThat(queue.head(100_000)).extracting(e -> new String(e.delivery().body(), StandardCharsets.UTF_8))
                        .as("round " + round).containsExactlyElementsOf(model);
                for (int i = random.nextInt(20); i > 0; i--) {
                    String body = "{\"n\":" + (++n) + ",\"pad\":\"" + "x".repeat(random.nextInt(2000)) + "\"}";
                    queue.append(delivery("memo", "a", "k" + n, body));
                    model.addLast(body);
                }
                for (int i = random.nextInt(model.size() + 1); i > 0; i--) {
                    queue.remove(queue.head(1).get(0).position());
                    model.removeFirst();
                }
                if (random.nextBoolean()) {
                    Path image = dir.resolve("round-" + (round + 1));
                    Files.createDirectories(image);
                    try (java.util.stream.Stream<Path> files = Files.list(at)) {
                        for (Path f : files.toList()) {
                            Files.copy(f, image.resolve(f.getFileName()));
                        }
                    }
                    at = image; // killed: what the files held at that moment is what the next round opens
                }
            } finally {
                queue.close();
            }
        }
    }

    @Test
    void the_queue_of_an_earlier_gate_is_moved_in_once_in_order_and_its_file_set_aside() throws Exception {
        java.nio.file.Files.createDirectories(dir);
        try (org.h2.mvstore.MVStore old = new org.h2.mvstore.MVStore.Builder().fileName(dir.resolve(EdgeQueue.OLD_FILE).toString()).open()) {
            org.h2.mvstore.MVMap<Long, byte[]> map = old.openMap("deliveries");
            map.put(1L, delivery("memo", "a", "k1", "{\"n\":1}").encode());
            map.put(2L, new byte[] {9, 9});
            map.put(3L, delivery("memo", "a", "k3", "{\"n\":3}").encode());
        }
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            assertThat(queue.head(10)).extracting(e -> new String(e.delivery().body(), StandardCharsets.UTF_8))
                    .containsExactly("{\"n\":1}", "{\"n\":3}");
        }
        assertThat(dir.resolve(EdgeQueue.OLD_FILE)).doesNotExist();
        assertThat(dir.resolve(EdgeQueue.OLD_FILE + ".moved")).exists();
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            assertThat(queue.count()).as("moved once").isEqualTo(2);
        }
    }

    @Test
    void the_same_delivery_queued_again_is_answered_with_the_first_id() throws Exception {
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            QueuedDelivery first = delivery("memo", "a", "k1", "{}");
            assertThat(queue.append(first)).isEqualTo(new EdgeQueue.Queued(first.deliveryId(), false));
            assertThat(queue.append(delivery("memo", "a", "k1", "{}"))).isEqualTo(new EdgeQueue.Queued(first.deliveryId(), true));
            assertThat(queue.append(delivery("memo", "a", "k1", "{\"other\":1}"))).isInstanceOf(EdgeQueue.KeyConflict.class);
            QueuedDelivery noKey = delivery("memo", "a", null, "{\"x\":1}");
            queue.append(noKey);
            assertThat(queue.append(new QueuedDelivery(UUID.randomUUID().toString(), "memo", "a", NOW, noKey.signature(), null, null,
                    noKey.body()))).isEqualTo(new EdgeQueue.Queued(noKey.deliveryId(), true));
            assertThat(queue.count()).isEqualTo(2);
        }
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            assertThat(queue.append(delivery("memo", "a", "k1", "{}"))).isInstanceOf(EdgeQueue.Queued.class)
                    .extracting(q -> ((EdgeQueue.Queued) q).replayed()).isEqualTo(true);
        }
    }

    @Test
    void the_queue_is_bounded_per_app_and_per_cell() throws Exception {
        try (EdgeQueue queue = new EdgeQueue(dir, new EdgeQueue.Limits(2, 1_000_000, 3, 10_000_000), LOG)) {
            assertThat(queue.append(delivery("one", "a", "1", "{\"n\":1}"))).isInstanceOf(EdgeQueue.Queued.class);
            assertThat(queue.append(delivery("one", "a", "2", "{\"n\":2}"))).isInstanceOf(EdgeQueue.Queued.class);
            assertThat(queue.append(delivery("one", "a", "3", "{\"n\":3}"))).isInstanceOf(EdgeQueue.Full.class);
            assertThat(queue.append(delivery("two", "a", "1", "{\"n\":1}"))).isInstanceOf(EdgeQueue.Queued.class);
            assertThat(queue.append(delivery("three", "a", "1", "{\"n\":1}"))).isInstanceOf(EdgeQueue.Full.class);
            queue.remove(queue.head(1).get(0).position());
            assertThat(queue.append(delivery("three", "a", "1", "{\"n\":1}"))).isInstanceOf(EdgeQueue.Queued.class);
        }
        java.nio.file.Files.delete(dir.resolve(EdgeQueue.FILE));
        try (EdgeQueue queue = new EdgeQueue(dir, new EdgeQueue.Limits(100, 300, 100, 10_000_000), LOG)) {
            assertThat(queue.append(delivery("big", "a", "1", "x".repeat(200)))).isInstanceOf(EdgeQueue.Full.class);
        }
    }

    @Test
    void a_record_that_is_not_a_whole_delivery_is_dropped_never_handed_over() throws Exception {
        byte[] whole = delivery("memo", "a", "k", "{\"n\":1}").encode();
        byte[] torn = java.util.Arrays.copyOf(whole, whole.length - 3);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> QueuedDelivery.decode(torn)))
                .isInstanceOf(java.io.IOException.class);
        new EdgeQueue(dir, ROOMY, LOG).close();
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EdgeQueue.FILE));
                java.sql.PreparedStatement insert = db.prepareStatement("INSERT INTO DELIVERIES (POSITION, RECORD) VALUES (?, ?)")) {
            insert.setLong(1, 1);
            insert.setBytes(2, whole);
            insert.executeUpdate();
            insert.setLong(1, 2);
            insert.setBytes(2, torn);
            insert.executeUpdate();
        }
        try (EdgeQueue queue = new EdgeQueue(dir, ROOMY, LOG)) {
            assertThat(queue.count()).isEqualTo(1);
            assertThat(queue.head(10)).extracting(EdgeQueue.Entry::position).containsExactly(1L);
        }
    }
}
