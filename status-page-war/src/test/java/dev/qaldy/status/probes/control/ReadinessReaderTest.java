package dev.qaldy.status.probes.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.CellsFormat;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.Health;
import dev.qaldy.status.probes.entity.ProbeResult;
import dev.qaldy.status.probes.entity.Reason;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** From readiness answers to up / down / unknown: directly, and through the control plane's checks. */
class ReadinessReaderTest {

    private static final Cell CELL = CellsFormat.parse(
            "local=gate:http://127.0.0.1:8080,control:http://127.0.0.1:8081,runtime:http://127.0.0.1:8082").get(0);
    private static final Component GATE = CELL.components().get(0);

    private static final String UP = "{\"status\":\"UP\",\"checks\":[{\"name\":\"gate\",\"status\":\"UP\"}]}";

    static Stream<Arguments> direct() {
        return Stream.of(
                Arguments.of(HttpOutcome.answered(200, UP, 15), Health.UP, Reason.READY, "Ready."),
                Arguments.of(HttpOutcome.answered(200, "{\"status\":\"UP\",\"checks\":[]}", 15), Health.UP, Reason.READY, "Ready."),
                Arguments.of(HttpOutcome.answered(503, "{\"status\":\"DOWN\",\"checks\":[{\"name\":\"gate\",\"status\":\"DOWN\"}]}", 15),
                        Health.DOWN, Reason.NOT_READY, "Not ready: HTTP 503, checks down: gate."),
                // HTTP 200 is not enough: the body must say UP
                Arguments.of(HttpOutcome.answered(200, "{\"status\":\"DOWN\"}", 15), Health.DOWN, Reason.NOT_READY,
                        "Not ready: HTTP 200 but the answer does not say UP."),
                Arguments.of(HttpOutcome.answered(200, "<html>hello</html>", 15), Health.DOWN, Reason.NOT_READY,
                        "Not ready: HTTP 200 but the answer does not say UP."),
                Arguments.of(HttpOutcome.answered(200, "", 15), Health.DOWN, Reason.NOT_READY,
                        "Not ready: HTTP 200 but the answer does not say UP."),
                // status UP with another code is not ready either
                Arguments.of(HttpOutcome.answered(202, UP, 15), Health.DOWN, Reason.NOT_READY, "Not ready: HTTP 202."),
                Arguments.of(HttpOutcome.answered(404, "Not Found", 15), Health.DOWN, Reason.NOT_READY, "Not ready: HTTP 404."),
                Arguments.of(HttpOutcome.answered(500, "[1,2]", 15), Health.DOWN, Reason.NOT_READY, "Not ready: HTTP 500."),
                Arguments.of(HttpOutcome.failed("connection refused", 3), Health.DOWN, Reason.NO_ANSWER,
                        "No answer: connection refused."),
                Arguments.of(HttpOutcome.failed("no answer within 2 s", 2000), Health.DOWN, Reason.NO_ANSWER,
                        "No answer: no answer within 2 s."),
                Arguments.of(null, Health.DOWN, Reason.NO_ANSWER, "No answer: not probed."));
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @MethodSource("direct")
    void direct(HttpOutcome outcome, Health health, Reason reason, String detail) {
        ProbeResult result = ReadinessReader.direct(GATE, outcome);

        assertThat(result.componentId()).isEqualTo("local.gate");
        assertThat(result.health()).isEqualTo(health);
        assertThat(result.reason()).isEqualTo(reason);
        assertThat(result.detail()).isEqualTo(detail);
        assertThat(result.latencyMs()).isEqualTo(outcome == null || !outcome.answered() ? null : 15L);
    }

    private static String checks(String... nameStatus) {
        StringBuilder json = new StringBuilder("{\"status\":\"");
        boolean allUp = Stream.of(nameStatus).allMatch(s -> s.endsWith("=UP"));
        json.append(allUp ? "UP" : "DOWN").append("\",\"checks\":[");
        for (int i = 0; i < nameStatus.length; i++) {
            String[] parts = nameStatus[i].split("=");
            json.append(i == 0 ? "" : ",").append("{\"name\":\"").append(parts[0]).append("\",\"status\":\"")
                    .append(parts[1]).append("\"}");
        }
        return json.append("]}").toString();
    }

    static Stream<Arguments> throughTheControlPlane() {
        return Stream.of(
                // control plane ready, every check present and up
                Arguments.of(HttpOutcome.answered(200, checks("database=UP", "builder=UP", "scheduler=UP"), 9),
                        "control=UP database=UP builder=UP scheduler=UP"),
                // control plane up but its database check DOWN: control not ready, database down
                Arguments.of(HttpOutcome.answered(503, checks("database=DOWN", "builder=UP", "scheduler=UP"), 9),
                        "control=DOWN database=DOWN builder=UP scheduler=UP"),
                // checks the control plane does not list are unknown, never green
                Arguments.of(HttpOutcome.answered(200, checks("database=UP"), 9),
                        "control=UP database=UP builder=UNKNOWN scheduler=UNKNOWN"),
                Arguments.of(HttpOutcome.answered(200, "{\"status\":\"UP\",\"checks\":[]}", 9),
                        "control=UP database=UNKNOWN builder=UNKNOWN scheduler=UNKNOWN"),
                Arguments.of(HttpOutcome.answered(200, "{\"status\":\"UP\"}", 9),
                        "control=UP database=UNKNOWN builder=UNKNOWN scheduler=UNKNOWN"),
                // names are matched loosely; any matching check DOWN wins
                Arguments.of(HttpOutcome.answered(503, checks("qaldy-database=UP", "db-migrations=DOWN", "build-queue=UP",
                        "schedules=UP"), 9), "control=DOWN database=DOWN builder=UP scheduler=UP"),
                // a DOWN builder makes the control plane not ready, but the database is still up
                Arguments.of(HttpOutcome.answered(503, checks("database=UP", "builder=DOWN", "scheduler=UP"), 9),
                        "control=DOWN database=UP builder=DOWN scheduler=UP"),
                // control plane down: what it reports cannot be known
                Arguments.of(HttpOutcome.failed("connection refused", 1),
                        "control=DOWN database=UNKNOWN builder=UNKNOWN scheduler=UNKNOWN"),
                // an answer that is not health JSON tells nothing about the others
                Arguments.of(HttpOutcome.answered(502, "<html>Bad gateway</html>", 9),
                        "control=DOWN database=UNKNOWN builder=UNKNOWN scheduler=UNKNOWN"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("throughTheControlPlane")
    void throughTheControlPlane(HttpOutcome control, String expected) {
        Map<String, HttpOutcome> outcomes = Map.of(
                "local.gate", HttpOutcome.answered(200, UP, 5),
                "local.control", control,
                "local.runtime", HttpOutcome.answered(200, UP, 5));

        Map<String, ProbeResult> results = ReadinessReader.read(CELL, outcomes).stream()
                .collect(Collectors.toMap(ProbeResult::componentId, Function.identity()));

        assertThat(results).containsOnlyKeys("local.gate", "local.control", "local.database", "local.runtime",
                "local.builder", "local.scheduler");
        String picture = Stream.of("control", "database", "builder", "scheduler")
                .map(key -> key + "=" + results.get("local." + key).health())
                .collect(Collectors.joining(" "));
        assertThat(picture).isEqualTo(expected);
        assertThat(results.get("local.database").latencyMs()).isNull();
    }

    @Test
    void reportedComponentsSayWhy() {
        Component database = CELL.components().stream().filter(c -> c.key().equals("database")).findFirst().orElseThrow();

        assertThat(ReadinessReader.reported(database, HttpOutcome.failed("connection refused", 1)))
                .extracting(ProbeResult::reason, ProbeResult::detail)
                .containsExactly(Reason.REPORTER_DOWN, "The control plane does not answer, so the database cannot be checked.");
        assertThat(ReadinessReader.reported(database, HttpOutcome.answered(503, checks("database=DOWN"), 1)))
                .extracting(ProbeResult::reason, ProbeResult::detail)
                .containsExactly(Reason.CHECK_DOWN, "The control plane reports its check 'database' as DOWN.");
        assertThat(ReadinessReader.reported(database, HttpOutcome.answered(200, checks("builder=UP"), 1)))
                .extracting(ProbeResult::reason, ProbeResult::detail)
                .containsExactly(Reason.NOT_REPORTED, "The control plane's readiness has no check for the database.");
    }
}
