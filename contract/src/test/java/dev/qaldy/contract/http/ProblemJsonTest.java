package dev.qaldy.contract.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProblemJsonTest {

    @ParameterizedTest(name = "{0} {1} from the API: {2}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
            "200 | application/json                 | true",
            "302 | none                             | true",
            "404 | application/problem+json         | true",
            "404 | Application/Problem+JSON; charset=UTF-8 | true",
            "404 | text/html;charset=ISO-8859-1     | false",
            "404 | none                             | false",
            "401 | application/json                 | false",
            "409 | application/problem+jsonx       | false"})
    void a_4xx_is_the_apis_only_with_its_problem_json(int status, String contentType, boolean api) {
        assertThat(ProblemJson.fromTheApi(status, contentType)).isEqualTo(api);
    }

    @Test
    void the_body_is_rfc_9457_with_the_cells_type() {
        JsonObject json = Json.createReader(new StringReader(ProblemJson.body(503, "asleep", "Asleep", "It sleeps \"now\"."))).readObject();
        assertThat(json.getString("type")).isEqualTo("urn:qaldy:problem:asleep");
        assertThat(json.getString("title")).isEqualTo("Asleep");
        assertThat(json.getInt("status")).isEqualTo(503);
        assertThat(json.getString("detail")).isEqualTo("It sleeps \"now\".");
    }
}
