package dev.qaldy.runtime.bundles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.control.LiveMarks;
import dev.qaldy.runtime.bundles.control.LiveMarks.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's own high-water marks of live records: a real file, restarts as new instances. */
class LiveMarksTest {

    final Logger log = Logger.getLogger(LiveMarksTest.class.getName());
    @TempDir
    Path dir;

    LiveMarks marks(int maxApps) {
        return new LiveMarks(dir.resolve("runtime-live/live-marks.json"), maxApps, log);
    }

    @Test
    void a_mark_is_never_lowered_and_outlives_the_host() {
        LiveMarks marks = marks(10);
        assertThat(marks.judge("notes", 1)).as("a host that never saw the app").isEqualTo(Verdict.TAKEN);
        marks.raise("notes", 5);
        marks.raise("notes", 3);
        assertThat(marks.judge("notes", 4)).isEqualTo(Verdict.OLDER);
        assertThat(marks.judge("notes", 5)).isEqualTo(Verdict.TAKEN);
        assertThat(marks(10).judge("notes", 4)).isEqualTo(Verdict.OLDER);
        assertThat(dir.resolve("runtime-live")).isDirectoryNotContaining(p -> p.getFileName().toString().endsWith(".tmp"));
    }

    @Test
    void past_the_bound_the_lowest_mark_goes_and_the_floor_rises_to_it() {
        LiveMarks marks = marks(2);
        marks.raise("a", 3);
        marks.raise("b", 7);
        marks.raise("c", 9);
        assertThat(marks.judge("a", 3)).as("evicted: the floor stands at its mark").isEqualTo(Verdict.TAKEN);
        assertThat(marks.judge("a", 2)).as("below the floor: unproven, never taken").isEqualTo(Verdict.UNPROVEN);
        assertThat(marks.judge("b", 6)).isEqualTo(Verdict.OLDER);
        assertThat(marks(1).judge("b", 8)).as("read back into a smaller bound: b evicted, floor 7").isEqualTo(Verdict.TAKEN);
        assertThat(marks(1).judge("b", 6)).isEqualTo(Verdict.UNPROVEN);
    }

    @Test
    void an_unreadable_file_is_set_aside_and_stays_unproven_until_the_clock_is_seen() throws IOException {
        Files.createDirectories(dir.resolve("runtime-live"));
        Files.writeString(dir.resolve("runtime-live/live-marks.json"), "{\"format\":\"qaldy-live-marks/1\",\"floor\":-1,\"marks\":{}}");
        LiveMarks marks = marks(10);
        assertThat(dir.resolve("runtime-live/live-marks.json.refused")).exists();
        assertThat(marks.judge("notes", 1_000)).isEqualTo(Verdict.UNPROVEN);
        assertThat(marks(10).judge("notes", 1_000)).as("after a restart too").isEqualTo(Verdict.UNPROVEN);
        marks.raise("notes", 4);
        assertThat(marks.judge("notes", 4)).as("learned from the control plane since").isEqualTo(Verdict.TAKEN);
        marks.clockSeen(20);
        assertThat(marks.judge("other", 20)).isEqualTo(Verdict.UNPROVEN);
        assertThat(marks(10).judge("other", 21)).isEqualTo(Verdict.TAKEN);
        marks.clockSeen(5);
        assertThat(marks(10).judge("other", 20)).as("only an unproven floor comes down").isEqualTo(Verdict.UNPROVEN);
    }
}
