package dev.qaldy.runtime.sites;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.sites.control.ContentTypes;
import dev.qaldy.runtime.sites.control.StaticFiles;
import dev.qaldy.runtime.sites.control.StaticFiles.AddSlash;
import dev.qaldy.runtime.sites.control.StaticFiles.Found;
import dev.qaldy.runtime.sites.control.StaticFiles.Missing;
import dev.qaldy.runtime.sites.control.StaticFiles.NotModified;
import dev.qaldy.runtime.testing.TestBundles;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StaticFilesTest {

    final Bundle bundle = TestBundles.bundle("site", 3, Map.of(
            "qaldy.json", "{\"name\":\"site\",\"kind\":\"app\"}",
            "server.js", "secret();",
            "public/index.html", "<h1>home</h1>",
            "public/app.js", "console.log(1)",
            "public/docs/index.html", "<h1>docs</h1>",
            "public/docs/a b.txt", "spaced",
            "public/empty-dir/file.txt", "x"));

    static String etagOf(String text) {
        return "\"" + BundleFile.sha256Hex(text.getBytes(StandardCharsets.UTF_8)) + "\"";
    }

    @Test
    void the_root_and_directories_answer_with_their_index() {
        Found root = (Found) StaticFiles.resolve(bundle, "/", null);
        assertThat(root.file().text()).isEqualTo("<h1>home</h1>");
        assertThat(root.contentType()).isEqualTo("text/html; charset=utf-8");
        assertThat(((Found) StaticFiles.resolve(bundle, "/docs/", null)).file().text()).isEqualTo("<h1>docs</h1>");
    }

    @Test
    void a_directory_without_its_slash_is_redirected_to_it() {
        assertThat(StaticFiles.resolve(bundle, "/docs", null)).isEqualTo(new AddSlash("/docs/", "public/docs/index.html"));
    }

    @Test
    void missing_files_and_directories_without_index_are_missing() {
        assertThat(StaticFiles.resolve(bundle, "/nope.html", null)).isInstanceOf(Missing.class);
        assertThat(StaticFiles.resolve(bundle, "/empty-dir/", null)).isInstanceOf(Missing.class);
        assertThat(StaticFiles.resolve(bundle, "/empty-dir", null)).isInstanceOf(Missing.class);
    }

    @Test
    void only_public_files_are_served() {
        assertThat(StaticFiles.resolve(bundle, "/server.js", null)).isInstanceOf(Missing.class);
        assertThat(StaticFiles.resolve(bundle, "/qaldy.json", null)).isInstanceOf(Missing.class);
    }

    @Test
    void decoded_names_find_their_file() {
        assertThat(((Found) StaticFiles.resolve(bundle, "/docs/a b.txt", null)).file().text()).isEqualTo("spaced");
    }

    @Test
    void the_etag_is_the_content_hash() {
        Found js = (Found) StaticFiles.resolve(bundle, "/app.js", null);
        assertThat(js.file().etag()).isEqualTo(etagOf("console.log(1)"));
        assertThat(js.contentType()).isEqualTo("text/javascript; charset=utf-8");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "CURRENT|true",
        "W/CURRENT|true",
        "\"other\", CURRENT|true",
        "*|true",
        "\"other\"|false",
        "|false"
    })
    void if_none_match_gives_304_only_for_the_current_content(String header, boolean notModified) {
        String current = etagOf("<h1>home</h1>");
        String ifNoneMatch = header == null ? null : header.replace("CURRENT", current);
        StaticFiles.Answer answer = StaticFiles.resolve(bundle, "/index.html", ifNoneMatch);
        if (notModified) {
            assertThat(answer).isEqualTo(new NotModified(current, "public/index.html"));
        } else {
            assertThat(answer).isInstanceOf(Found.class);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "public/index.html|text/html; charset=utf-8",
        "public/a.HTM|text/html; charset=utf-8",
        "public/s.css|text/css; charset=utf-8",
        "public/m.mjs|text/javascript; charset=utf-8",
        "public/d.json|application/json",
        "public/i.svg|image/svg+xml",
        "public/i.png|image/png",
        "public/i.jpg|image/jpeg",
        "public/i.jpeg|image/jpeg",
        "public/i.gif|image/gif",
        "public/favicon.ico|image/x-icon",
        "public/i.webp|image/webp",
        "public/f.woff2|font/woff2",
        "public/w.wasm|application/wasm",
        "public/r.txt|text/plain; charset=utf-8",
        "public/noext|application/octet-stream",
        "public/.hidden|application/octet-stream",
        "public/dir.d/file|application/octet-stream",
        "public/x.unknown|application/octet-stream"
    })
    void content_types_follow_the_extension(String path, String type) {
        assertThat(ContentTypes.of(path)).isEqualTo(type);
    }
}
