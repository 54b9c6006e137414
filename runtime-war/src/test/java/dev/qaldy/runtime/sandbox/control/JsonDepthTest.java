package dev.qaldy.runtime.sandbox.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The nesting bound checked before the runtime host parses a JSON body. */
class JsonDepthTest {

    static String nested(int levels) {
        return "[".repeat(levels) + "]".repeat(levels);
    }

    @ParameterizedTest
    @CsvSource({
        "'{\"a\":1}', 1, false",
        "'{\"a\":{\"b\":[1]}}', 3, false",
        "'{\"a\":{\"b\":[1]}}', 2, true",
        "'[[],[],[]]', 2, false",
        "'\"[[[[[[\"', 1, false",
        "'{\"a\":\"\\\"[[[[\"}', 1, false",
        "'not json [[[', 2, true",
        "'', 0, false"})
    void counts_open_arrays_and_objects_outside_strings(String json, int max, boolean exceeds) {
        assertThat(JsonDepth.exceeds(json, max)).isEqualTo(exceeds);
    }

    @Test
    void the_default_bound_admits_its_own_depth_and_refuses_one_more_and_the_3000_levels_seen() {
        assertThat(JsonDepth.exceeds(nested(JsonDepth.DEFAULT_MAX), JsonDepth.DEFAULT_MAX)).isFalse();
        assertThat(JsonDepth.exceeds(nested(JsonDepth.DEFAULT_MAX + 1), JsonDepth.DEFAULT_MAX)).isTrue();
        assertThat(JsonDepth.exceeds("{\"a\":" + nested(3000) + "}", JsonDepth.DEFAULT_MAX)).isTrue();
        assertThat(JsonDepth.exceeds(null, 0)).isFalse();
    }

    @Test
    void closing_brackets_in_excess_do_not_lower_the_count_below_zero() {
        assertThat(JsonDepth.exceeds("]]]]" + nested(3), 2)).isTrue();
    }
}
