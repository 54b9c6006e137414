package dev.qaldy.control.data.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The bounds of the data API: collection names, record size and shape, pages. */
class RecordBoundsTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "notes", "guest-book-2", "abcdefghijabcdefghijabcdefghijabcdefghij"})
    void good_collection_names(String name) {
        assertThat(RecordBounds.collection(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Notes", "notes_1", "no tes", "../x", "abcdefghijabcdefghijabcdefghijabcdefghijk", "é"})
    void bad_collection_names(String name) {
        assertThatThrownBy(() -> RecordBounds.collection(name)).isInstanceOf(InvalidInput.class);
    }

    @Test
    void a_record_is_a_json_object_of_at_most_16_kib() {
        String padding = "x".repeat(16 * 1024 - "{\"t\":\"\"}".length());
        assertThat(RecordBounds.record("{\"t\":\"" + padding + "\"}")).hasSize(16 * 1024);
        assertThatThrownBy(() -> RecordBounds.record("{\"t\":\"" + padding + "x\"}")).isInstanceOf(PayloadTooLarge.class);
        assertThat(RecordBounds.record("{ \"a\" : [1, 2] }")).isEqualTo("{\"a\":[1,2]}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "[1,2]", "\"text\"", "42", "{\"a\":", "null"})
    void anything_but_an_object_is_refused(String json) {
        assertThatThrownBy(() -> RecordBounds.record(json)).isInstanceOf(InvalidInput.class);
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {"null, 20", "1, 1", "100, 100"})
    void page_sizes(String limit, int size) {
        assertThat(RecordBounds.page(limit)).isEqualTo(size);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "101", "-1", "ten"})
    void bad_page_sizes(String limit) {
        assertThatThrownBy(() -> RecordBounds.page(limit)).isInstanceOf(InvalidInput.class);
    }

    @Test
    void a_list_is_oldest_first_unless_newest_is_asked() {
        assertThat(RecordBounds.newestFirst(null)).isFalse();
        assertThat(RecordBounds.newestFirst("oldest")).isFalse();
        assertThat(RecordBounds.newestFirst("newest")).isTrue();
        assertThatThrownBy(() -> RecordBounds.newestFirst("random")).isInstanceOf(InvalidInput.class).hasMessageContaining("newest");
    }
}
