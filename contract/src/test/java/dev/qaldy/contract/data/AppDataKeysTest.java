package dev.qaldy.contract.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AppDataKeysTest {

    static final String SECRET = "a-service-secret-of-the-cell";

    @Test
    void a_credential_opens_its_own_app_only() {
        String board = AppDataKeys.derive(SECRET, "board");
        assertThat(board).startsWith("v1.").hasSize(3 + 64);
        assertThat(AppDataKeys.matches(SECRET, "board", board)).isTrue();
        assertThat(AppDataKeys.matches(SECRET, "guestbook", board)).as("another app").isFalse();
        assertThat(AppDataKeys.matches("another-cell-secret", "board", board)).as("another cell").isFalse();
        assertThat(board).isNotEqualTo(AppDataKeys.derive(SECRET, "board2")).doesNotContain(SECRET);
    }

    @Test
    void nothing_missing_ever_matches() {
        assertThat(AppDataKeys.matches(SECRET, "board", null)).isFalse();
        assertThat(AppDataKeys.matches(SECRET, "board", "")).isFalse();
        assertThat(AppDataKeys.matches("", "board", AppDataKeys.derive(SECRET, "board"))).isFalse();
        assertThat(AppDataKeys.matches(null, "board", "v1.")).isFalse();
        assertThatThrownBy(() -> AppDataKeys.derive("", "board")).isInstanceOf(IllegalArgumentException.class);
    }
}
