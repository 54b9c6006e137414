package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookMaterial;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the gate learned of hooks: the newer change wins, kept on disk for the owner only. */
class HookBookTest {

    static final Logger LOG = Logger.getLogger(HookBookTest.class.getName());

    @TempDir
    Path dir;

    static HookMaterial made(String hook, long sequence, String secret) {
        return new HookMaterial("memo", hook, sequence, "ping", List.of(secret), 1_000, 0, 7, false);
    }

    @Test
    void the_newer_change_wins_and_a_late_push_never_brings_a_hook_back() throws Exception {
        HookBook book = new HookBook(dir.resolve("hooks.json"), 100, LOG);
        book.learn(List.of(made("a", 1, "s1"), made("b", 2, "s2")), 2);
        book.learn(List.of(new HookMaterial("memo", "a", 3, null, List.of(), 0, 0, 0, true)), -1);
        assertThat(book.learn(List.of(made("a", 1, "s1")), 2)).isZero();
        assertThat(book.find("memo", "a")).isEmpty();
        assertThat(book.find("memo", "b")).map(HookMaterial::secrets).contains(List.of("s2"));
        assertThat(book.next()).isEqualTo(2);
    }

    @Test
    void a_restarted_gate_knows_what_it_learned_and_the_file_is_its_users_only() throws Exception {
        Path file = dir.resolve("hooks.json");
        new HookBook(file, 100, LOG).learn(List.of(made("a", 1, "s1")), 7);
        HookBook again = new HookBook(file, 100, LOG);
        again.restore();
        assertThat(again.find("memo", "a")).isPresent();
        assertThat(again.next()).isEqualTo(7);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void a_damaged_file_is_set_aside_and_the_feed_read_from_its_start() throws Exception {
        Path file = dir.resolve("hooks.json");
        Files.writeString(file, "{\"next\":5,\"hooks\":[{\"app\":\"memo\"}]}");
        HookBook book = new HookBook(file, 100, LOG);
        book.restore();
        assertThat(book.next()).isZero();
        assertThat(book.size()).isZero();
        assertThat(dir.resolve("hooks.json.refused")).exists();
    }

    @Test
    void secrets_are_not_in_its_words() {
        assertThat(made("a", 1, "very-secret").toString()).doesNotContain("very-secret");
    }
}
