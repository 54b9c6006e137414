package dev.qaldy.status.groups.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.groups.entity.GroupStatus;
import dev.qaldy.status.groups.entity.UseGroup;
import dev.qaldy.status.probes.entity.ComponentStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The headline: one sentence in people's words of what still works, from the groups' statuses. */
class HeadlineTest {

    /** Groups in display order with statuses given as "APPS SIGN_IN CONSOLE BUILDS WEBHOOKS SCHEDULES" initials. */
    private static List<GroupStatus> groups(String statuses) {
        String[] words = statuses.split(" ");
        List<GroupStatus> groups = new ArrayList<>();
        for (int i = 0; i < words.length; i++) {
            groups.add(new GroupStatus(UseGroup.values()[i], status(words[i]), List.of()));
        }
        return groups;
    }

    private static ComponentStatus status(String word) {
        return switch (word) {
            case "ok" -> ComponentStatus.OPERATIONAL;
            case "slow" -> ComponentStatus.DEGRADED_PERFORMANCE;
            case "?" -> ComponentStatus.UNKNOWN;
            case "starting" -> ComponentStatus.STARTING;
            case "part" -> ComponentStatus.PARTIAL_OUTAGE;
            case "down" -> ComponentStatus.MAJOR_OUTAGE;
            default -> throw new IllegalArgumentException(word);
        };
    }

    static Stream<Arguments> cases() {
        // apps, sign-in, console, builds, webhooks, schedules
        return Stream.of(
                Arguments.of("ok ok ok ok ok ok", "Everything is working."),
                Arguments.of("ok down part down down part",
                        "Apps people already opened keep working; sign-in, changes, builds, webhooks and schedules wait."),
                Arguments.of("down ok ok ok down down",
                        "Apps are down; sign-in, the console and builds keep working; webhooks and schedules wait."),
                Arguments.of("down down down down down down",
                        "Apps, sign-in, changes, builds, webhooks and schedules are all down."),
                Arguments.of("part down down down down down",
                        "Some apps are down; sign-in, changes, builds, webhooks and schedules wait."),
                Arguments.of("ok ok ok down ok ok", "Builds wait; everything else keeps working."),
                Arguments.of("ok ok ok ok ok down", "Schedules wait; everything else keeps working."),
                Arguments.of("part part part part part ok", "Some apps are down; schedules keep working; "
                        + "sign-in, changes, builds and webhooks wait."),
                Arguments.of("starting starting starting starting starting starting", "Everything is starting up."),
                Arguments.of("ok starting starting starting starting starting",
                        "Apps people already opened keep working; sign-in, changes, builds, webhooks and schedules are starting."),
                Arguments.of("ok ok ok ? ok ok", "Builds cannot be checked right now; everything else keeps working."),
                Arguments.of("? ? ? ? ? ?", "The status page has no recent data, so it cannot tell what works right now."),
                Arguments.of("slow ok ok ok slow slow", "Sign-in, the console and builds keep working; apps, webhooks and schedules are slow."),
                Arguments.of("ok down", "Apps people already opened keep working; sign-in waits."));
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @MethodSource("cases")
    void oneSentenceOfWhatStillWorks(String statuses, String sentence) {
        String headline = Headline.sentence(groups(statuses));

        assertThat(headline).isEqualTo(sentence);
        assertThat(headline).as("no word from inside the cell")
                .doesNotContainIgnoringCase("control plane").doesNotContainIgnoringCase("runtime")
                .doesNotContainIgnoringCase("gate").doesNotContainIgnoringCase("database").doesNotContainIgnoringCase("outage");
    }

    @Test
    void nothingWatched() {
        assertThat(Headline.sentence(List.of())).isEqualTo("The status page watches nothing yet.");
    }
}
