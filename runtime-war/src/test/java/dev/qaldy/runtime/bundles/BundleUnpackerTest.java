package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.runtime.bundles.control.BundleRefusedException;
import dev.qaldy.runtime.bundles.control.BundleUnpacker;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.testing.TestBundles;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BundleUnpackerTest {

    static final BundleKey KEY = new BundleKey("demo", 1);

    static Bundle unpack(byte[] zip) {
        return BundleUnpacker.unpack(KEY, BundleFile.sha256Hex(zip), zip, TestBundles.NOW);
    }

    @Test
    void files_are_held_with_their_hash_and_the_default_handler_is_found() {
        Bundle bundle = unpack(TestBundles.zip(Map.of("public/index.html", "<h1>hi</h1>", "server.js", "//")));
        assertThat(bundle.fileCount()).isEqualTo(2);
        assertThat(bundle.handlerPath()).contains("server.js");
        assertThat(bundle.file("public/index.html").orElseThrow().sha256())
                .isEqualTo(BundleFile.sha256Hex("<h1>hi</h1>".getBytes(StandardCharsets.UTF_8)));
        assertThat(bundle.weight()).isGreaterThan(11 + 2);
    }

    @Test
    void the_manifest_may_name_another_handler_and_a_missing_one_is_refused() {
        Bundle named = unpack(TestBundles.zip(Map.of("qaldy.json", "{\"name\":\"d\",\"kind\":\"app\",\"handler\":\"api/main.js\"}",
                "api/main.js", "//", "server.js", "//")));
        assertThat(named.handlerPath()).contains("api/main.js");
        assertThatThrownBy(() -> unpack(TestBundles.zip(Map.of("qaldy.json", "{\"handler\":\"gone.js\"}"))))
                .isInstanceOf(BundleRefusedException.class);
        assertThatThrownBy(() -> unpack(TestBundles.zip(Map.of("qaldy.json", "{\"handler\":\"../x.js\"}", "x.js", ""))))
                .isInstanceOf(BundleRefusedException.class);
        assertThat(unpack(TestBundles.zip(Map.of("public/index.html", "x"))).handlerPath()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../evil", "public/../../evil", "/etc/passwd", "public\\..\\evil", "public//x", "./x",
        "public/a\u0000b"})
    void unsafe_entry_names_refuse_the_bundle(String name) {
        assertThatThrownBy(() -> unpack(TestBundles.zip(Map.of(name, "x", "public/index.html", "ok"))))
                .isInstanceOf(BundleRefusedException.class);
    }

    @Test
    void not_a_zip_is_refused() {
        assertThatThrownBy(() -> unpack("just some text".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(BundleRefusedException.class);
    }

    @Test
    void duplicate_entries_are_refused() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("public/index.html"));
            zip.write('a');
            zip.closeEntry();
            // ZipOutputStream refuses a duplicate name; the same path in another case is distinct, so
            // write a second entry and patch its name in the bytes afterwards.
            zip.putNextEntry(new ZipEntry("public/indeX.html"));
            zip.write('b');
            zip.closeEntry();
        }
        byte[] bytes = new String(out.toByteArray(), StandardCharsets.ISO_8859_1)
                .replace("public/indeX.html", "public/index.html").getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> unpack(bytes)).isInstanceOf(BundleRefusedException.class).hasMessageContaining("duplicate");
    }

    @Test
    void more_entries_than_the_builder_allows_are_refused() {
        Map<String, String> files = new HashMap<>();
        for (int i = 0; i <= 2000; i++) {
            files.put("public/f" + i + ".txt", "");
        }
        assertThatThrownBy(() -> unpack(TestBundles.zip(files))).isInstanceOf(BundleRefusedException.class)
                .hasMessageContaining("entries");
    }
}
