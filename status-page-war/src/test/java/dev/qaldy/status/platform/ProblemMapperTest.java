package dev.qaldy.status.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import jakarta.json.Json;
import jakarta.json.JsonException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** A body that is not a JSON object is the caller's mistake (400 "bad-json"), never a 500. */
class ProblemMapperTest {

    /** What the JSON-P provider throws when it reads {@code body} as the JsonObject a resource takes. */
    static Throwable readingObject(String body) {
        return catchThrowable(() -> Json.createReader(new StringReader(body)).readObject());
    }

    @Test
    void malformed_json_is_found_and_told_with_where_the_parser_stopped() {
        Throwable error = readingObject("{bad");
        JsonException json = ProblemMapper.badJson(error);
        assertThat(json).isNotNull();
        assertThat(ProblemMapper.badJsonTitle(json)).startsWith("The request's body is not a valid JSON object (stopped at line 1,")
                .contains("nothing was changed").doesNotContain("Exception").doesNotContain("token");
    }

    @Test
    void an_array_or_an_empty_body_where_an_object_is_asked_for_is_bad_json_too() {
        for (String body : new String[] {"[1,2]", "", "\"user\"", "{\"user\":\"a\",}"}) {
            Throwable error = readingObject(body);
            assertThat(ProblemMapper.badJson(error)).as(body).isNotNull();
            assertThat(ProblemMapper.badJsonTitle(ProblemMapper.badJson(error))).as(body)
                    .startsWith("The request's body is not a valid JSON object");
        }
    }

    @Test
    void the_parsers_error_is_found_inside_whatever_the_server_wraps_it_in() {
        Throwable parsing = readingObject("{bad");
        Throwable wrapped = new IllegalStateException("reader failed", new RuntimeException(parsing));
        assertThat(ProblemMapper.badJson(wrapped)).isSameAs(parsing);
    }

    @Test
    void other_errors_are_not_mistaken_for_bad_json() {
        assertThat(ProblemMapper.badJson(new IllegalStateException("db down", new java.sql.SQLException("no")))).isNull();
        assertThat(ProblemMapper.badJson(new NullPointerException())).isNull();
    }
}
