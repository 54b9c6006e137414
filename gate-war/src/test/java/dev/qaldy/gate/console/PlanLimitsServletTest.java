package dev.qaldy.gate.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.shield.Limit;
import dev.qaldy.gate.shield.Plan;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PlanLimitsServletTest {

    @Test
    void thePlansLimitsAsTheConsoleReadsThem() {
        assertThat(PlanLimitsServlet.json("guestbook", Plan.FREE_DEFAULTS)).isEqualTo("{\"app\":\"guestbook\",\"plan\":\"free\","
                + "\"perClientPerMinute\":600,\"perAppPerMinute\":6000,\"perAppPerDay\":100000}");
        assertThat(PlanLimitsServlet.json("memo", new Plan("pro", new Limit(1200, 200), new Limit(9000, 7), 5000)))
                .contains("\"plan\":\"pro\"").contains("\"perClientPerMinute\":1200").contains("\"perAppPerMinute\":9000")
                .contains("\"perAppPerDay\":5000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Guestbook", "-a", "a-", "a\"b", "a/b", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})
    void onlyAnAppNameIsAnswered(String app) {
        assertThat(PlanLimitsServlet.APP.matcher(app).matches()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "guestbook", "my-app", "a1"})
    void appNames(String app) {
        assertThat(PlanLimitsServlet.APP.matcher(app).matches()).isTrue();
    }
}
