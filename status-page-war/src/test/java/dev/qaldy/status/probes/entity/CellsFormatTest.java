package dev.qaldy.status.probes.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** qaldy.status.cells: the format, the rows it gives, and the mistakes it names. */
class CellsFormatTest {

    /** A compact picture of the parsed cells: "cell: key=url key …" per cell. */
    private static String picture(List<Cell> cells) {
        return cells.stream().map(cell -> cell.name() + ": " + cell.components().stream()
                .map(c -> c.baseUrl() == null ? c.key() : c.key() + "=" + c.baseUrl())
                .collect(Collectors.joining(" "))).collect(Collectors.joining(" | "));
    }

    static Stream<Arguments> valid() {
        return Stream.of(
                Arguments.of("local=gate:http://127.0.0.1:8080,control:http://127.0.0.1:8081,runtime:http://127.0.0.1:8082",
                        "local: gate=http://127.0.0.1:8080 control=http://127.0.0.1:8081 database runtime=http://127.0.0.1:8082 builder scheduler"),
                // order in the text does not matter; blanks and a trailing "/" and ";" are ignored
                Arguments.of(" local = runtime:http://h:2/ , control:http://h:1 ; ",
                        "local: control=http://h:1 database runtime=http://h:2 builder scheduler"),
                // a bare URL is one more of the previous kind: two gates (as qaldy.control.gate-urls lists them)
                Arguments.of("local=gate:http://127.0.0.1:8080,http://127.0.0.1:8083,control:http://127.0.0.1:8081",
                        "local: gate=http://127.0.0.1:8080 gate-2=http://127.0.0.1:8083 control=http://127.0.0.1:8081 database builder scheduler"),
                // no control plane: no database, builder or scheduler rows
                Arguments.of("edge=gate:https://gate.example.org", "edge: gate=https://gate.example.org"),
                // several cells; kinds are case-insensitive
                Arguments.of("eu-1=GATE:http://a:1,control:http://a:2;us-1=control:http://b:2",
                        "eu-1: gate=http://a:1 control=http://a:2 database builder scheduler | us-1: control=http://b:2 database builder scheduler"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void valid(String text, String expected) {
        assertThat(picture(CellsFormat.parse(text))).isEqualTo(expected);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("", "is empty"),
                Arguments.of("  ;  ", "lists no cell"),
                Arguments.of("gate:http://a:1", "has no '='"),
                Arguments.of("Local=gate:http://a:1", "cell name 'Local'"),
                Arguments.of("local=", "lists no component"),
                Arguments.of("local=http://a:1", "needs a kind first"),
                Arguments.of("local=database:http://a:1", "'database:http://a:1' is not KIND:URL"),
                Arguments.of("local=gate", "'gate' is not KIND:URL"),
                Arguments.of("local=gate:ftp://a:1", "is not an http(s) base URL"),
                Arguments.of("local=gate:http://a:1/health?x=1", "is not an http(s) base URL"),
                Arguments.of("local=gate:http://user:pw@a:1", "is not an http(s) base URL"),
                Arguments.of("local=gate:http://a b", "is not a URL"),
                Arguments.of("local=control:http://a:1,control:http://a:2", "more than one control plane"),
                Arguments.of("local=control:http://a:1,http://a:2", "more than one control plane"),
                Arguments.of("a=gate:http://a:1;a=gate:http://b:1", "the cell 'a' twice"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("invalid")
    void invalid(String text, String message) {
        assertThatThrownBy(() -> CellsFormat.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("qaldy.status.cells")
                .hasMessageContaining(message);
    }

    @Test
    void componentsHaveIdsNamesAndReadinessUrls() {
        Cell cell = CellsFormat.parse("local=gate:http://a:1,http://a:3/,control:http://a:2").get(0);

        assertThat(cell.components()).extracting(Component::id, Component::name).containsExactly(
                org.assertj.core.groups.Tuple.tuple("local.gate", "Gate"),
                org.assertj.core.groups.Tuple.tuple("local.gate-2", "Gate 2"),
                org.assertj.core.groups.Tuple.tuple("local.control", "Control plane"),
                org.assertj.core.groups.Tuple.tuple("local.database", "Database"),
                org.assertj.core.groups.Tuple.tuple("local.builder", "Builder"),
                org.assertj.core.groups.Tuple.tuple("local.scheduler", "Scheduler"));
        assertThat(cell.components().get(1).readinessUrl()).hasToString("http://a:3/health/ready");
        assertThat(cell.control()).map(Component::id).contains("local.control");
        assertThat(cell.probedDirectly()).hasSize(3);
        assertThat(cell.reportedByControl()).extracting(Component::kind)
                .containsExactly(ComponentKind.DATABASE, ComponentKind.BUILDER, ComponentKind.SCHEDULER);
    }

    @ParameterizedTest(name = "check ''{1}'' names {0}: {2}")
    @org.junit.jupiter.params.provider.CsvSource({
            "DATABASE, database, true", "DATABASE, Database-Connection, true", "DATABASE, qaldy-datasource, true",
            "DATABASE, db, true", "DATABASE, db-ping, true", "DATABASE, jdbc/qaldy, true", "DATABASE, jdbc, true",
            "DATABASE, dbms-free, false", "DATABASE, control-plane, false",
            "BUILDER, builder, true", "BUILDER, build-queue, true", "BUILDER, scheduler, false",
            "SCHEDULER, scheduler, true", "SCHEDULER, schedules, true", "SCHEDULER, builder, false",
            "GATE, gate, false"})
    void checkNames(ComponentKind kind, String name, boolean names) {
        assertThat(kind.namesCheck(name)).isEqualTo(names);
    }
}
