package dev.qaldy.contract.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files of kept state: replaced whole, and owner-only when they hold secrets. */
class KeptFileTest {

    @TempDir
    Path dir;

    @Test
    void an_owner_only_file_is_rw_for_its_owner_alone_and_replaced_whole() throws Exception {
        Path file = dir.resolve("hooks.json");
        KeptFile.writeOwnerOnly(file, "one".getBytes(StandardCharsets.UTF_8));
        KeptFile.writeOwnerOnly(file, "two".getBytes(StandardCharsets.UTF_8));
        assertThat(Files.readString(file)).isEqualTo("two");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files.filter(KeptFile::isLeftover)).isEmpty();
        }
    }
}
