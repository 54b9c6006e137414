package dev.qaldy.control.webhooks.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.webhooks.control.Idempotency.Verdict;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The idempotency rules of deliveries, table-driven. */
class IdempotencyTest {

    @ParameterizedTest(name = "recorded {0}, this {1} → {2}")
    @CsvSource(nullValues = "null", value = {
        "null, aaa, NEW",
        "aaa,  aaa, REPLAY",
        "aaa,  bbb, CONFLICT"})
    void decides(String recorded, String body, Verdict verdict) {
        assertThat(Idempotency.decide(recorded, body)).isEqualTo(verdict);
    }

    @ParameterizedTest(name = "Idempotency-Key {0}, X-Qaldy-Delivery {1} → {2}")
    @CsvSource(nullValues = "null", value = {
        "null,    null,  null",
        "'  ',    null,  null",
        "k1,      null,  k1",
        "null,    d1,    d1",
        "k1,      d1,    k1",
        "' k1 ',  null,  k1"})
    void takes_the_key_from_either_header(String key, String delivery, String expected) {
        assertThat(Idempotency.key(key, delivery)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"with space", "tab\there", "é"})
    void refuses_keys_that_are_not_printable_ascii(String key) {
        assertThatThrownBy(() -> Idempotency.key(key, null)).isInstanceOf(InvalidInput.class);
    }

    @org.junit.jupiter.api.Test
    void refuses_keys_over_200_characters() {
        assertThat(Idempotency.key("k".repeat(200), null)).hasSize(200);
        assertThatThrownBy(() -> Idempotency.key("k".repeat(201), null)).isInstanceOf(InvalidInput.class);
    }
}
