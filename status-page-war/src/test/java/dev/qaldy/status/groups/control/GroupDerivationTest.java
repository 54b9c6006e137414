package dev.qaldy.status.groups.control;

import static dev.qaldy.status.probes.entity.ComponentStatus.DEGRADED_PERFORMANCE;
import static dev.qaldy.status.probes.entity.ComponentStatus.MAJOR_OUTAGE;
import static dev.qaldy.status.probes.entity.ComponentStatus.OPERATIONAL;
import static dev.qaldy.status.probes.entity.ComponentStatus.PARTIAL_OUTAGE;
import static dev.qaldy.status.probes.entity.ComponentStatus.STARTING;
import static dev.qaldy.status.probes.entity.ComponentStatus.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.groups.entity.UseGroup;
import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.CellsFormat;
import dev.qaldy.status.probes.entity.Component;
import dev.qaldy.status.probes.entity.ComponentStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Each way of using the platform from the components it needs, as the seed's table says. */
class GroupDerivationTest {

    private static final Cell CELL = CellsFormat.parse(
            "local=gate:http://a:1,http://a:5,control:http://a:2,runtime:http://a:3").get(0);

    /** Every component of {@link #CELL} operational but those given, as "key=STATUS" pairs. */
    private static Map<String, ComponentStatus> statuses(String changes) {
        Map<String, ComponentStatus> statuses = new HashMap<>();
        CELL.components().forEach(c -> statuses.put(c.id(), OPERATIONAL));
        for (String change : changes.isBlank() ? new String[0] : changes.split(" ")) {
            String[] pair = change.split("=");
            statuses.put("local." + pair[0], ComponentStatus.valueOf(pair[1]));
        }
        return statuses;
    }

    static Stream<Arguments> cases() {
        // apps, sign-in, console, builds, webhooks, schedules
        return Stream.of(
                Arguments.of("everything working", "",
                        List.of(OPERATIONAL, OPERATIONAL, OPERATIONAL, OPERATIONAL, OPERATIONAL, OPERATIONAL)),
                // Webhooks partly: the gate checks and queues deliveries while the control plane is away (issue 17).
                Arguments.of("control plane down: what only it reports is unknown",
                        "control=MAJOR_OUTAGE database=UNKNOWN builder=UNKNOWN scheduler=UNKNOWN",
                        List.of(OPERATIONAL, MAJOR_OUTAGE, PARTIAL_OUTAGE, MAJOR_OUTAGE, PARTIAL_OUTAGE, PARTIAL_OUTAGE)),
                Arguments.of("database down", "database=MAJOR_OUTAGE",
                        List.of(OPERATIONAL, MAJOR_OUTAGE, PARTIAL_OUTAGE, MAJOR_OUTAGE, PARTIAL_OUTAGE, PARTIAL_OUTAGE)),
                Arguments.of("runtime host down", "runtime=MAJOR_OUTAGE",
                        List.of(MAJOR_OUTAGE, OPERATIONAL, OPERATIONAL, OPERATIONAL, MAJOR_OUTAGE, MAJOR_OUTAGE)),
                Arguments.of("builder down", "builder=MAJOR_OUTAGE",
                        List.of(OPERATIONAL, OPERATIONAL, OPERATIONAL, MAJOR_OUTAGE, OPERATIONAL, OPERATIONAL)),
                Arguments.of("scheduler down", "scheduler=MAJOR_OUTAGE",
                        List.of(OPERATIONAL, OPERATIONAL, OPERATIONAL, OPERATIONAL, OPERATIONAL, MAJOR_OUTAGE)),
                Arguments.of("one of two gates down", "gate=MAJOR_OUTAGE",
                        List.of(PARTIAL_OUTAGE, PARTIAL_OUTAGE, PARTIAL_OUTAGE, PARTIAL_OUTAGE, PARTIAL_OUTAGE, OPERATIONAL)),
                Arguments.of("both gates down", "gate=MAJOR_OUTAGE gate-2=MAJOR_OUTAGE",
                        List.of(MAJOR_OUTAGE, MAJOR_OUTAGE, MAJOR_OUTAGE, MAJOR_OUTAGE, MAJOR_OUTAGE, OPERATIONAL)),
                Arguments.of("a new cell: the control plane starting",
                        "control=STARTING database=STARTING builder=STARTING scheduler=STARTING",
                        List.of(OPERATIONAL, STARTING, STARTING, STARTING, STARTING, STARTING)),
                Arguments.of("runtime host slow", "runtime=DEGRADED_PERFORMANCE",
                        List.of(DEGRADED_PERFORMANCE, OPERATIONAL, OPERATIONAL, OPERATIONAL, DEGRADED_PERFORMANCE,
                                DEGRADED_PERFORMANCE)),
                Arguments.of("builder not reported", "builder=UNKNOWN",
                        List.of(OPERATIONAL, OPERATIONAL, OPERATIONAL, UNKNOWN, OPERATIONAL, OPERATIONAL)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void groupsFollowTheComponentsTheyNeed(String name, String changes, List<ComponentStatus> expected) {
        List<GroupStatus> groups = GroupDerivation.of(CELL, statuses(changes));

        assertThat(groups).extracting(GroupStatus::group).containsExactly(UseGroup.values());
        assertThat(groups).extracting(GroupStatus::status).containsExactlyElementsOf(expected);
    }

    @Test
    void eachGroupListsTheComponentsItReliesOn() {
        Map<UseGroup, List<String>> ids = new HashMap<>();
        GroupDerivation.of(CELL, statuses("")).forEach(g -> ids.put(g.group(), g.componentIds()));

        assertThat(ids.get(UseGroup.APPS)).containsExactly("local.gate", "local.gate-2", "local.runtime");
        assertThat(ids.get(UseGroup.SIGN_IN)).containsExactly("local.gate", "local.gate-2", "local.control", "local.database");
        assertThat(ids.get(UseGroup.SCHEDULES))
                .containsExactly("local.control", "local.database", "local.runtime", "local.scheduler");
    }

    @Test
    void aCellWithOnlyAGateHasTheGroupsItCanTellAbout() {
        Cell edge = CellsFormat.parse("edge=gate:http://b:1").get(0);

        List<GroupStatus> groups = GroupDerivation.of(edge, Map.of("edge.gate", MAJOR_OUTAGE));

        assertThat(groups).extracting(GroupStatus::group)
                .containsExactly(UseGroup.APPS, UseGroup.SIGN_IN, UseGroup.CONSOLE, UseGroup.BUILDS, UseGroup.WEBHOOKS);
        assertThat(groups).extracting(GroupStatus::status).containsOnly(MAJOR_OUTAGE);
        assertThat(GroupDerivation.of(edge, Map.of())).extracting(GroupStatus::status).as("never probed").containsOnly(UNKNOWN);
    }

    @Test
    void overSeveralCellsAGroupIsDownWhenItIsDownInEveryCell() {
        Cell edge = CellsFormat.parse("edge=gate:http://b:1").get(0);
        List<GroupStatus> local = GroupDerivation.of(CELL, statuses("runtime=MAJOR_OUTAGE"));

        List<GroupStatus> upThere = GroupDerivation.across(List.of(local, GroupDerivation.of(edge, Map.of("edge.gate", OPERATIONAL))));
        List<GroupStatus> downThere = GroupDerivation.across(List.of(local, GroupDerivation.of(edge, Map.of("edge.gate", MAJOR_OUTAGE))));

        assertThat(upThere.get(0).status()).isEqualTo(PARTIAL_OUTAGE);
        assertThat(upThere.get(0).componentIds()).containsExactly("local.gate", "local.gate-2", "local.runtime", "edge.gate");
        assertThat(downThere.get(0).status()).isEqualTo(MAJOR_OUTAGE);
        assertThat(upThere).extracting(GroupStatus::group).as("schedules only in the cell that has them")
                .containsExactly(UseGroup.values());
        assertThat(upThere.get(5).status()).isEqualTo(MAJOR_OUTAGE);
    }

    @Test
    void severalStatusesOfOneThing() {
        assertThat(GroupDerivation.combine(List.of(MAJOR_OUTAGE, MAJOR_OUTAGE))).isEqualTo(MAJOR_OUTAGE);
        assertThat(GroupDerivation.combine(List.of(MAJOR_OUTAGE, OPERATIONAL))).isEqualTo(PARTIAL_OUTAGE);
        assertThat(GroupDerivation.combine(List.of(UNKNOWN, OPERATIONAL))).isEqualTo(UNKNOWN);
        assertThat(GroupDerivation.combine(List.of(STARTING, UNKNOWN))).isEqualTo(STARTING);
        assertThat(GroupDerivation.combine(List.of())).isEqualTo(UNKNOWN);
        assertThat(CELL.components()).extracting(Component::key)
                .containsExactly("gate", "gate-2", "control", "database", "runtime", "builder", "scheduler");
    }
}
