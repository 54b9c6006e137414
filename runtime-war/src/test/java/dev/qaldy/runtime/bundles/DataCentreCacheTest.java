package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.live.LiveStatement;
import dev.qaldy.contract.live.LiveStatements;
import dev.qaldy.contract.seal.BundleSeal;
import dev.qaldy.contract.seal.BundleSeals;
import dev.qaldy.runtime.bundles.control.DataCentreCache;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.bundles.entity.LiveRecord;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.testing.MovableClock;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sealed copies on disk: real files, real keys, real seals. */
class DataCentreCacheTest {

    final KeyPair cell = TestBundles.keys();
    final MovableClock clock = new MovableClock(TestBundles.NOW);
    final List<LogRecord> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    @TempDir
    Path dir;
    Path cacheDir;
    CellCredentials credentials;
    DataCentreCache cache;
    byte[] zip;
    LiveVersion live;

    @BeforeEach
    void start() {
        credentials = TestCredentials.write(dir, cell);
        cacheDir = dir.resolve("dc-cache");
        cache = cache(1L << 30);
        zip = TestBundles.zip(Map.of("public/index.html", "<h1>v1</h1>", "server.js", "//"));
        live = TestBundles.live("guestbook", 1, zip, cell);
    }

    DataCentreCache cache(long maxBytes) {
        Logger log = Logger.getAnonymousLogger();
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        return new DataCentreCache(cacheDir, dir.resolve("runtime-live"), maxBytes, 1024 * 1024, credentials, clock, log);
    }

    Path copy(String app, long version) {
        return cacheDir.resolve(app + ".v" + version + ".bundle");
    }

    List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(cacheDir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void a_copy_is_one_file_of_a_header_line_and_the_bytes_and_reads_back_verified() throws IOException {
        cache.keep(live, zip);
        assertThat(names()).containsExactly("guestbook.v1.bundle");
        byte[] file = Files.readAllBytes(copy("guestbook", 1));
        String header = "qaldy-dc-copy/1 " + zip.length + " " + live.sha256() + " " + live.seal() + "\n";
        assertThat(new String(file, 0, header.length(), StandardCharsets.US_ASCII)).isEqualTo(header);
        assertThat(Arrays.copyOfRange(file, header.length(), file.length)).isEqualTo(zip);

        assertThat(cache.read(live.key(), live.sha256())).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(zip));
        assertThat(cache.read(live.key(), null)).isPresent();
        assertThat(cache.read(new BundleKey("guestbook", 2), null)).isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void a_flipped_byte_is_refused_deleted_and_logged() throws IOException {
        cache.keep(live, zip);
        byte[] file = Files.readAllBytes(copy("guestbook", 1));
        file[file.length - 20] ^= 1;
        Files.write(copy("guestbook", 1), file);
        assertThat(cache.read(live.key(), live.sha256())).isEmpty();
        assertThat(copy("guestbook", 1)).doesNotExist();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).getLevel()).isEqualTo(Level.WARNING);
    }

    @Test
    void keeping_a_version_again_rewrites_a_damaged_copy_and_leaves_a_good_one() throws IOException {
        cache.keep(live, zip);
        byte[] good = Files.readAllBytes(copy("guestbook", 1));
        byte[] damaged = good.clone();
        damaged[damaged.length - 20] ^= 1;
        Files.write(copy("guestbook", 1), damaged);
        cache.keep(live, zip);
        assertThat(Files.readAllBytes(copy("guestbook", 1))).isEqualTo(good);

        Files.setLastModifiedTime(copy("guestbook", 1), FileTime.from(TestBundles.NOW.minusSeconds(600)));
        cache.keep(live, zip);
        assertThat(Files.getLastModifiedTime(copy("guestbook", 1)).toInstant()).isEqualTo(TestBundles.NOW);
        assertThat(cache.read(live.key(), live.sha256())).isPresent();
    }

    @Test
    void a_seal_from_another_key_is_refused_and_deleted() throws IOException {
        cache.keep(live, zip);
        String forged = BundleSeals.sign(new BundleSeal("guestbook", 1, live.sha256(), TestBundles.NOW),
                CellKeys.signing(TestBundles.keys()));
        replaceInHeader(live.seal(), forged);
        assertThat(cache.read(live.key(), live.sha256())).isEmpty();
        assertThat(copy("guestbook", 1)).doesNotExist();
    }

    @Test
    void a_copy_renamed_to_another_version_is_refused() throws IOException {
        cache.keep(live, zip);
        Files.move(copy("guestbook", 1), copy("guestbook", 2));
        assertThat(cache.read(new BundleKey("guestbook", 2), null)).isEmpty();
        assertThat(copy("guestbook", 2)).doesNotExist();
    }

    @Test
    void a_truncated_or_extended_copy_is_refused_and_deleted() throws IOException {
        cache.keep(live, zip);
        byte[] file = Files.readAllBytes(copy("guestbook", 1));
        Files.write(copy("guestbook", 1), Arrays.copyOf(file, file.length - 1));
        assertThat(cache.read(live.key(), live.sha256())).isEmpty();
        assertThat(copy("guestbook", 1)).doesNotExist();

        cache.keep(live, zip);
        Files.write(copy("guestbook", 1), Arrays.copyOf(file, file.length + 1));
        assertThat(cache.read(live.key(), live.sha256())).isEmpty();
        assertThat(copy("guestbook", 1)).doesNotExist();

        cache.keep(live, zip);
        Files.write(copy("guestbook", 1), Arrays.copyOf(file, 40));
        assertThat(cache.read(live.key(), live.sha256())).isEmpty();
        assertThat(copy("guestbook", 1)).doesNotExist();
        assertThat(warnings).hasSize(3);
    }

    @Test
    void a_copy_that_is_not_the_live_answers_bundle_is_refused() {
        cache.keep(live, zip);
        assertThat(cache.read(live.key(), "0".repeat(64))).isEmpty();
        assertThat(copy("guestbook", 1)).doesNotExist();
    }

    @Test
    void writing_leaves_no_temporary_file_and_clears_abandoned_ones() throws IOException {
        Files.createDirectories(cacheDir);
        Path abandoned = cacheDir.resolve(".tmp-crashed");
        Path recent = cacheDir.resolve(".tmp-another-host-writing");
        Files.write(abandoned, new byte[100]);
        Files.write(recent, new byte[100]);
        Files.setLastModifiedTime(abandoned, FileTime.from(TestBundles.NOW.minus(Duration.ofHours(2))));
        Files.setLastModifiedTime(recent, FileTime.from(TestBundles.NOW.minusSeconds(5)));
        DataCentreCache tiny = cache(1);
        tiny.keep(live, zip);
        assertThat(names()).containsExactly(".tmp-another-host-writing", "guestbook.v1.bundle");
    }

    @Test
    void the_cache_is_bounded_and_the_least_recently_used_copy_goes_first() throws IOException {
        byte[][] zips = new byte[4][];
        LiveVersion[] lives = new LiveVersion[4];
        Random random = new Random(7);
        for (int v = 1; v <= 3; v++) {
            byte[] noise = new byte[2000];
            random.nextBytes(noise);
            zips[v] = TestBundles.zipBytes(Map.of("public/noise.bin", noise));
            lives[v] = TestBundles.live("guestbook", v, zips[v], cell);
        }
        cache.keep(lives[1], zips[1]);
        long one = Files.size(copy("guestbook", 1));
        DataCentreCache bounded = cache(one * 5 / 2);
        clock.advance(Duration.ofMinutes(1));
        bounded.keep(lives[2], zips[2]);
        bounded.recordServed(lives[2].key(), "public/noise.bin");
        clock.advance(Duration.ofMinutes(1));
        assertThat(bounded.read(lives[1].key(), null)).isPresent(); // v1 is now the most recently used
        clock.advance(Duration.ofMinutes(1));
        bounded.keep(lives[3], zips[3]);
        assertThat(names()).containsExactly("guestbook.v1.bundle", "guestbook.v3.bundle");
    }

    @Test
    void served_paths_are_appended_read_back_and_a_line_cut_short_does_not_count() throws IOException {
        BundleKey key = live.key();
        assertThat(cache.servedPaths(key)).isEmpty();
        cache.recordServed(key, "public/index.html");
        cache.recordServed(key, "public/a b.css");
        cache.recordServed(key, "bad\npath");
        assertThat(cache.servedPaths(key)).containsExactlyInAnyOrder("public/index.html", "public/a b.css");
        Files.write(cacheDir.resolve("guestbook.v1.served"), "public/cut".getBytes(StandardCharsets.UTF_8),
                java.nio.file.StandardOpenOption.APPEND);
        assertThat(cache.servedPaths(key)).containsExactlyInAnyOrder("public/index.html", "public/a b.css");
    }

    @Test
    void the_live_record_keeps_the_signed_answer_learned_when_the_control_plane_signed_it() throws IOException {
        cache.remember(live, TestBundles.NOW.plusSeconds(2));
        assertThat(cache.liveRecord("guestbook")).contains(new LiveRecord("guestbook", live, 1, TestBundles.NOW));
        String json = Files.readString(cacheDir.resolve("guestbook.live"));
        assertThat(json).contains("\"format\":\"qaldy-live/2\"").contains(live.record()).contains(live.seal())
                .as("format 1's members, for hosts from before").contains("\"version\":1").contains("\"learnedAtMs\":");
        assertThat(cache.liveRecord("other")).isEmpty();
        assertThat(Files.readString(dir.resolve("runtime-live/live-marks.json"))).contains("\"guestbook\":1");
    }

    @Test
    void an_unchanged_answer_is_rewritten_once_a_minute_and_a_new_one_at_once() throws IOException {
        Path record = cacheDir.resolve("guestbook.live");
        cache.remember(live, TestBundles.NOW);
        clock.advance(Duration.ofSeconds(30));
        cache.remember(live, clock.instant());
        assertThat(Files.readString(record)).contains("\"learnedAtMs\":" + TestBundles.NOW.toEpochMilli());
        clock.advance(Duration.ofSeconds(31));
        cache.remember(live, clock.instant());
        assertThat(Files.readString(record)).contains("\"learnedAtMs\":" + TestBundles.NOW.plusSeconds(61).toEpochMilli());
        LiveVersion v2 = TestBundles.live("guestbook", 2, zip, cell);
        clock.advance(Duration.ofSeconds(1));
        cache.remember(v2, clock.instant());
        assertThat(cache.liveRecord("guestbook").orElseThrow().live()).isEqualTo(v2);
    }

    @Test
    void an_unsigned_forged_or_altered_record_is_refused_and_deleted() throws IOException {
        Path record = cacheDir.resolve("guestbook.live");
        Files.createDirectories(cacheDir);
        // Format 1, as every host wrote it before issue 16: a valid seal, but nothing signs the live answer.
        Files.writeString(record, "{\"app\":\"guestbook\",\"version\":1,\"sha256\":\"" + live.sha256() + "\",\"seal\":\""
                + live.seal() + "\",\"learnedAtMs\":" + TestBundles.NOW.toEpochMilli() + "}");
        assertThat(cache.liveRecord("guestbook")).isEmpty();
        assertThat(record).doesNotExist();
        assertThat(warnings).hasSize(1);

        LiveVersion forged = TestBundles.live("guestbook", 1, zip, TestBundles.keys(), 99);
        cache.remember(forged, TestBundles.NOW);
        assertThat(record).as("an answer whose record does not verify is not kept").doesNotExist();
        Files.writeString(record, "{\"format\":\"qaldy-live/2\",\"record\":\"" + forged.record() + "\",\"seal\":\""
                + live.seal() + "\"}");
        assertThat(cache.liveRecord("guestbook")).isEmpty();
        assertThat(record).doesNotExist();

        cache.remember(live, TestBundles.NOW);
        String json = Files.readString(record);
        LiveVersion otherVersion = TestBundles.live("guestbook", 2, TestBundles.zip(Map.of("a", "b")), cell);
        Files.writeString(record, json.replace(live.seal(), otherVersion.seal()));
        assertThat(cache.liveRecord("guestbook")).as("a seal of another version").isEmpty();
        assertThat(record).doesNotExist();

        cache.remember(TestBundles.live("guest", 1, zip, cell), TestBundles.NOW);
        Files.move(cacheDir.resolve("guest.live"), record);
        assertThat(cache.liveRecord("guestbook")).as("another app's record").isEmpty();
        assertThat(record).doesNotExist();

        Files.writeString(record, "{not json");
        assertThat(cache.liveRecord("guestbook")).isEmpty();
        assertThat(record).doesNotExist();
    }

    @Test
    void a_live_record_signed_in_the_future_is_refused() throws IOException {
        String record = LiveStatements.sign(LiveStatement.live("guestbook", 1, live.sha256(), 1, TestBundles.NOW.plus(Duration.ofHours(1))),
                CellKeys.signing(cell));
        cache.remember(new LiveVersion("guestbook", 1, live.sha256(), live.seal(), LiveVersion.NO_ACCOUNT, record), TestBundles.NOW);
        assertThat(cacheDir.resolve("guestbook.live")).exists();
        assertThat(cache.liveRecord("guestbook")).isEmpty();
    }

    @Test
    void an_older_signed_record_is_refused_once_a_newer_was_seen_also_after_a_restart() throws IOException {
        Path record = cacheDir.resolve("guestbook.live");
        cache.remember(live, TestBundles.NOW);
        byte[] v1 = Files.readAllBytes(record);
        LiveVersion v2 = TestBundles.live("guestbook", 2, zip, cell);
        cache.remember(v2, TestBundles.NOW);
        assertThat(cache.liveRecord("guestbook").orElseThrow().live()).isEqualTo(v2);

        // Whoever can write the shared cache puts v1's sealed record back, to roll the app back in an outage.
        Files.write(record, v1);
        assertThat(cache.liveRecord("guestbook")).isEmpty();
        assertThat(record).as("deleted from the shared cache").doesNotExist();
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w.getParameters()[2].toString()).contains("older"));

        Files.write(record, v1);
        DataCentreCache restarted = cache(1L << 30);
        assertThat(restarted.liveRecord("guestbook")).as("the host's marks outlive it").isEmpty();
        assertThat(record).doesNotExist();

        // A rollback is a newer change: v1 again, at a higher sequence, is taken.
        LiveVersion rollback = TestBundles.live("guestbook", 1, zip, cell, 3);
        restarted.remember(rollback, TestBundles.NOW);
        assertThat(cache(1L << 30).liveRecord("guestbook").orElseThrow().live()).isEqualTo(rollback);
    }

    @Test
    void a_newer_record_another_host_wrote_raises_the_mark_and_is_not_overwritten_by_an_older_answer() throws IOException {
        DataCentreCache other = new DataCentreCache(cacheDir, dir.resolve("other-live"), 1L << 30, 1024 * 1024, credentials, clock,
                Logger.getAnonymousLogger());
        LiveVersion v2 = TestBundles.live("guestbook", 2, zip, cell);
        cache.remember(live, TestBundles.NOW);
        byte[] v1 = Files.readAllBytes(cacheDir.resolve("guestbook.live"));
        other.remember(v2, TestBundles.NOW);
        cache.remember(live, TestBundles.NOW.plus(Duration.ofMinutes(2)));
        assertThat(other.liveRecord("guestbook").orElseThrow().live()).isEqualTo(v2);
        assertThat(cache.liveRecord("guestbook").orElseThrow().live()).as("read from the cache: its mark rises").isEqualTo(v2);
        Files.write(cacheDir.resolve("guestbook.live"), v1);
        assertThat(cache.liveRecord("guestbook")).isEmpty();
    }

    @Test
    void a_tombstone_ends_serving_and_no_older_record_comes_back() throws IOException {
        Path record = cacheDir.resolve("guestbook.live");
        cache.keep(live, zip);
        cache.remember(live, TestBundles.NOW);
        byte[] v1 = Files.readAllBytes(record);
        cache.gone("guestbook", TestBundles.tombstone("guestbook", 4, cell));
        assertThat(names()).containsExactly("guestbook.live");
        assertThat(cache.liveRecord("guestbook")).hasValueSatisfying(r -> {
            assertThat(r.gone()).isTrue();
            assertThat(r.sequence()).isEqualTo(4);
        });

        Files.write(record, v1);
        assertThat(cache(1L << 30).liveRecord("guestbook")).isEmpty();
        assertThat(record).doesNotExist();

        cache.gone("guestbook", TestBundles.tombstone("guestbook", 5, TestBundles.keys()));
        assertThat(record).as("a forged tombstone is not kept").doesNotExist();
        cache.gone("guestbook", TestBundles.tombstone("other", 5, cell));
        assertThat(record).as("nor another app's").doesNotExist();
    }

    @Test
    void a_corrupt_marks_file_is_set_aside_and_every_record_is_unproven_until_the_control_plane_answers() throws IOException {
        Path record = cacheDir.resolve("guestbook.live");
        Path marks = dir.resolve("runtime-live/live-marks.json");
        cache.remember(live, TestBundles.NOW);
        Files.writeString(marks, "{\"format\":\"qaldy-live-marks/1\",\"floor\":0,\"marks\":{\"guestbook\":");
        warnings.clear();

        DataCentreCache restarted = cache(1L << 30);
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w.getMessage()).contains("Refused the live-record marks"));
        assertThat(dir.resolve("runtime-live/live-marks.json.refused")).exists();
        assertThat(restarted.liveRecord("guestbook")).as("fail closed").isEmpty();
        assertThat(record).as("left for hosts that can judge it").exists();
        assertThat(cache(1L << 30).liveRecord("guestbook")).as("still after another restart").isEmpty();

        restarted.remember(live, TestBundles.NOW); // the control plane answered for the app
        assertThat(cache(1L << 30).liveRecord("guestbook")).isPresent();
        DataCentreCache otherHost = new DataCentreCache(cacheDir, dir.resolve("other-live"), 1L << 30, 1024 * 1024, credentials,
                clock, Logger.getAnonymousLogger());
        otherHost.remember(TestBundles.live("notes", 1, zip, cell), TestBundles.NOW);
        assertThat(cache(1L << 30).liveRecord("notes")).as("another app: still unproven").isEmpty();
        restarted.gone("deleted", TestBundles.tombstone("deleted", 1, cell)); // the clock stood at 1: records from 2 on count
        otherHost.remember(TestBundles.live("notes", 1, zip, cell, 2), TestBundles.NOW.plusSeconds(120));
        assertThat(cache(1L << 30).liveRecord("notes")).isPresent();
    }

    @Test
    void forgetting_an_app_deletes_its_files_and_only_its() throws IOException {
        LiveVersion guest = TestBundles.live("guest", 1, zip, cell);
        cache.keep(live, zip);
        cache.recordServed(live.key(), "public/index.html");
        cache.remember(live, TestBundles.NOW);
        cache.keep(guest, zip);
        cache.remember(guest, TestBundles.NOW);
        cache.forget("guestbook");
        assertThat(names()).containsExactly("guest.live", "guest.v1.bundle");
        cache.forget(guest.key());
        assertThat(names()).containsExactly("guest.live");
    }

    private void replaceInHeader(String from, String to) throws IOException {
        Path file = copy("guestbook", 1);
        byte[] bytes = Files.readAllBytes(file);
        int newline = 0;
        while (bytes[newline] != '\n') {
            newline++;
        }
        String header = new String(bytes, 0, newline, StandardCharsets.US_ASCII).replace(from, to);
        byte[] head = header.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + bytes.length - newline];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(bytes, newline, out, head.length, bytes.length - newline);
        Files.write(file, out);
    }
}
