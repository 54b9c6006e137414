package dev.qaldy.status.boundary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.qaldy.status.platform.Problem;
import org.junit.jupiter.api.Test;

/** The operator API's JSON bodies: an object is read; anything else is a 400 bad-json, never a 500. */
class OperatorJsonTest {

    @Test
    void a_json_object_is_read() {
        assertThat(OperatorResource.object("{\"user\":\"operator\",\"password\":\"p\"}").getString("user")).isEqualTo("operator");
    }

    @Test
    void an_empty_body_is_no_object_so_each_request_says_send_a_json_object() {
        assertThat(OperatorResource.object("")).isNull();
        assertThat(OperatorResource.object(null)).isNull();
    }

    @Test
    void malformed_json_or_json_that_is_not_an_object_is_a_400_with_a_clear_message() {
        for (String body : new String[] {"{bad", "[\"operator\"]", "\"operator\"", "42", "{\"user\":\"a\",}", "{} trailing"}) {
            Problem problem = catchThrowableOfType(() -> OperatorResource.object(body), Problem.class);
            assertThat(problem).as(body).isNotNull();
            assertThat(problem.status()).as(body).isEqualTo(400);
            assertThat(problem.type()).as(body).isEqualTo("bad-json");
            assertThat(problem.getMessage()).as(body).contains("nothing was changed").doesNotContain("Exception");
        }
    }
}
