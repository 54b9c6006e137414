package dev.qaldy.control.builds.control;

import static dev.qaldy.control.builds.control.TestZips.Entry.file;
import static dev.qaldy.control.builds.control.TestZips.Entry.link;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.builds.control.TestZips.Entry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundlePackagerTest {

    static final String MANIFEST = "{\"name\":\"guestbook\",\"kind\":\"app\",\"handler\":\"server.js\"}";

    @TempDir
    Path dir;
    final List<String> log = new ArrayList<>();
    final BundlePackager packager = new BundlePackager(BundleLimits.CONTRACT);

    @Test
    void a_valid_archive_becomes_a_sorted_bundle_with_fixed_times() throws Exception {
        PackedBundle packed = pack(TestZips.zip(List.of(file("server.js", "app.get('/api/x', function () {});"),
                file("qaldy.json", MANIFEST), file("public/", ""), file("public/index.html", "<h1>hi</h1>"))));

        assertThat(packed.files()).isEqualTo(3);
        assertThat(packed.manifest()).isEqualTo(new Manifest("guestbook", "app", "server.js"));
        assertThat(packed.sha256()).isEqualTo(sha256(Files.readAllBytes(packed.file())));
        try (ZipFile bundle = new ZipFile(packed.file().toFile())) {
            assertThat(Collections.list(bundle.entries())).extracting(ZipEntry::getName)
                    .containsExactly("public/index.html", "qaldy.json", "server.js");
            assertThat(Collections.list(bundle.entries())).allSatisfy(e -> {
                assertThat(e.getTimeLocal()).isEqualTo(LocalDateTime.of(2000, 1, 1, 0, 0));
                assertThat(e.getExtra()).isNull();
            });
            assertThat(new String(bundle.getInputStream(bundle.getEntry("public/index.html")).readAllBytes(),
                    StandardCharsets.UTF_8)).isEqualTo("<h1>hi</h1>");
        }
        assertThat(log).anyMatch(line -> line.contains("sha256 " + packed.sha256()));
    }

    @Test
    void the_same_files_give_the_same_sha256_whatever_the_order_times_and_compression() throws Exception {
        PackedBundle stored = pack(TestZips.zip(List.of(file("qaldy.json", MANIFEST), file("server.js", "// js"),
                file("public/index.html", "<p>x</p>"))));
        ByteArrayOutputStream deflated = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(deflated)) {
            for (String[] f : new String[][] {{"public/index.html", "<p>x</p>"}, {"server.js", "// js"}, {"qaldy.json", MANIFEST}}) {
                ZipEntry entry = new ZipEntry(f[0]);
                entry.setLastModifiedTime(FileTime.from(Instant.parse("2024-05-06T07:08:09Z")));
                zip.putNextEntry(entry);
                zip.write(f[1].getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        PackedBundle other = pack(deflated.toByteArray());

        assertThat(other.sha256()).isEqualTo(stored.sha256());
        assertThat(Files.readAllBytes(other.file())).isEqualTo(Files.readAllBytes(stored.file()));
    }

    @Test
    void the_sha256_does_not_depend_on_the_servers_time_zone() throws Exception {
        byte[] zip = TestZips.zip(List.of(file("qaldy.json", MANIFEST), file("server.js", "// js")));
        java.util.TimeZone original = java.util.TimeZone.getDefault();
        try {
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("UTC"));
            String utc = pack(zip).sha256();
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Pacific/Kiritimati"));
            assertThat(pack(zip).sha256()).isEqualTo(utc);
        } finally {
            java.util.TimeZone.setDefault(original);
        }
    }

    @Test
    void zip_slip_is_refused() {
        assertRefused(List.of(file("qaldy.json", MANIFEST), file("../../etc/cron.d/evil", "x")), "contains '..'");
        assertRefused(List.of(file("qaldy.json", MANIFEST), file("public/../../x", "x")), "contains '..'");
    }

    @Test
    void absolute_paths_are_refused() {
        assertRefused(List.of(file("qaldy.json", MANIFEST), file("/etc/passwd", "x")), "absolute path");
        assertRefused(List.of(file("qaldy.json", MANIFEST), file("C:/windows/x", "x")), "absolute path");
    }

    @Test
    void backslashes_are_refused() {
        assertRefused(List.of(file("qaldy.json", MANIFEST), file("public\\index.html", "x")), "backslash");
    }

    @Test
    void symbolic_links_are_refused() {
        assertRefused(List.of(file("qaldy.json", MANIFEST), link("public/passwd", "/etc/passwd")), "symbolic link");
    }

    @Test
    void more_than_2000_entries_are_refused() {
        List<Entry> entries = new ArrayList<>(List.of(file("qaldy.json", MANIFEST)));
        for (int i = 0; i < 2000; i++) {
            entries.add(file("public/f" + i + ".txt", "x"));
        }
        assertRefused(entries, "2001 entries; at most 2000");
    }

    @Test
    void too_many_uncompressed_bytes_are_refused() throws IOException {
        BundlePackager small = new BundlePackager(new BundleLimits(2000, 1000));
        Path upload = write(TestZips.zip(List.of(file("qaldy.json", MANIFEST), file("public/big.txt", "x".repeat(2000)))));
        assertThatThrownBy(() -> small.pack(upload, dir.resolve("out.zip"), log))
                .isInstanceOf(BundleRejected.class).hasMessageContaining("more than 1000 bytes uncompressed");
    }

    @Test
    void a_missing_or_bad_manifest_is_refused() {
        assertRefused(List.of(file("public/index.html", "x")), "no qaldy.json at the archive root");
        assertRefused(List.of(file("app/qaldy.json", MANIFEST)), "no qaldy.json at the archive root");
        assertRefused(List.of(file("qaldy.json", "{not json")), "qaldy.json is not valid JSON");
        assertRefused(List.of(file("qaldy.json", "[1]")), "must be a JSON object");
        assertRefused(List.of(file("qaldy.json", "{\"kind\":\"app\"}")), "\"name\" is required");
        assertRefused(List.of(file("qaldy.json", "{\"name\":\"Guest.Book\",\"kind\":\"app\"}")), "cannot be part of a web address");
        assertRefused(List.of(file("qaldy.json", "{\"name\":\"g\",\"kind\":\"daemon\"}")), "\"kind\" must be \"app\" or \"site\"");
        assertRefused(List.of(file("qaldy.json", MANIFEST)), "\"handler\" must name a .js file in the archive");
    }

    @Test
    void a_site_is_static_files_only() throws Exception {
        PackedBundle site = pack(TestZips.zip(List.of(file("qaldy.json", "{\"name\":\"docs\",\"kind\":\"site\"}"),
                file("public/index.html", "<h1>Docs</h1>"))));
        assertThat(site.files()).isEqualTo(2);
        assertRefused(List.of(file("qaldy.json", "{\"name\":\"docs\",\"kind\":\"site\",\"handler\":\"api.js\"}"),
                file("api.js", "x")), "a \"site\" is static files only");
        assertRefused(List.of(file("qaldy.json", "{\"name\":\"docs\",\"kind\":\"site\"}"), file("server.js", "x")),
                "a \"site\" is static files only");
    }

    @Test
    void something_that_is_not_a_zip_is_refused() throws IOException {
        Path upload = write("just some text, long enough to look for an end record".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> packager.pack(upload, dir.resolve("out.zip"), log))
                .isInstanceOf(BundleRejected.class).hasMessageContaining("not a zip archive");
        Path tiny = write(new byte[] {1, 2, 3});
        assertThatThrownBy(() -> packager.pack(tiny, dir.resolve("out.zip"), log))
                .isInstanceOf(BundleRejected.class).hasMessageContaining("not a zip archive");
    }

    @Test
    void macos_metadata_is_dropped_not_refused() throws Exception {
        PackedBundle packed = pack(TestZips.zip(List.of(file("qaldy.json", "{\"name\":\"g\",\"kind\":\"app\"}"),
                file("__MACOSX/._qaldy.json", "resource fork"))));
        assertThat(packed.files()).isEqualTo(1);
        assertThat(log).anyMatch(line -> line.startsWith("skipped 1 macOS"));
    }

    @Test
    void entry_names_follow_the_plain_relative_path_rule() {
        assertThat(BundlePackager.nameProblem("public/index.html")).isNull();
        assertThat(BundlePackager.nameProblem("public/")).isNull();
        assertThat(BundlePackager.nameProblem("a//b")).contains("not a plain relative path");
        assertThat(BundlePackager.nameProblem("./a")).contains("not a plain relative path");
        assertThat(BundlePackager.nameProblem("a\u0000b")).contains("control character");
        assertThat(BundlePackager.nameProblem("")).contains("empty name");
        assertThat(BundlePackager.nameProblem("..")).contains("'..'");
        assertThat(BundlePackager.nameProblem("a/..b")).isNull();
    }

    private void assertRefused(List<Entry> entries, String reason) {
        assertThatThrownBy(() -> pack(TestZips.zip(entries)))
                .isInstanceOf(BundleRejected.class).hasMessageContaining(reason);
    }

    private PackedBundle pack(byte[] zip) throws Exception {
        Path upload = write(zip);
        return packager.pack(upload, Files.createTempFile(dir, "bundle", ".zip"), log);
    }

    private Path write(byte[] bytes) throws IOException {
        return Files.write(Files.createTempFile(dir, "upload", ".zip"), bytes);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
