package dev.qaldy.contract.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16: one rule for the service token in every component (the gate took a token of any length). */
class ServiceCredentialTest {

    static final String SECRET = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    @Test
    void a_file_with_a_secret_shorter_than_sixteen_characters_is_refused_and_named() throws Exception {
        Path file = Files.writeString(dir.resolve("service-token"), "short-secret\n");
        assertThatThrownBy(() -> ServiceCredential.read(file)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("16 to 512 characters, not 12");
        assertThatThrownBy(() -> ServiceCredential.read(dir.resolve("missing"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot read");
    }

    @Test
    void the_line_and_the_presented_value_are_stripped_alike_and_nothing_else_matches() throws Exception {
        ServiceCredential credential = ServiceCredential.read(Files.writeString(dir.resolve("service-token"), "  " + SECRET + "\n"));
        assertThat(credential.secret()).isEqualTo(SECRET);
        assertThat(credential.matches(SECRET)).isTrue();
        assertThat(credential.matches(" " + SECRET + " ")).isTrue();
        assertThat(credential.matches(SECRET.substring(1))).isFalse();
        assertThat(credential.matches(SECRET.toUpperCase())).isFalse();
        assertThat(credential.matches(null)).isFalse();
        assertThat(credential.matches("   ")).isFalse();
        assertThat(credential.matches(SECRET.repeat(20))).as("over 512 characters").isFalse();
        assertThat(credential.toString()).doesNotContain(SECRET);
    }
}
