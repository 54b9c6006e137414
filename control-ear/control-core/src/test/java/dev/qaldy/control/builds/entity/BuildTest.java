package dev.qaldy.control.builds.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.people.entity.Person;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildTest {

    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    final App app = new App("guestbook", new Person("ana@example.com", "hash", NOW), NOW);

    @Test
    void versions_count_up_and_are_never_reused() {
        assertThat(app.nextBuildVersion()).isEqualTo(1);
        assertThat(app.nextBuildVersion()).isEqualTo(2);
        assertThatThrownBy(() -> app.promote(3, 1)).isInstanceOf(IllegalArgumentException.class);
        app.promote(2, 5);
        assertThat(app.liveVersion()).isEqualTo(2);
        assertThat(app.liveSequence()).isEqualTo(5);
    }

    @Test
    void the_live_sequence_only_grows_a_rollback_included() {
        app.nextBuildVersion();
        app.nextBuildVersion();
        app.promote(2, 5);
        assertThatThrownBy(() -> app.promote(1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> app.promote(1, 4)).isInstanceOf(IllegalArgumentException.class);
        app.promote(1, 6);
        assertThat(app.liveVersion()).isEqualTo(1);
        assertThat(app.liveSequence()).isEqualTo(6);
        assertThatThrownBy(() -> app.assignLiveSequence(9)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_finished_build_never_changes() {
        Build build = new Build(app, 1, "ana@example.com", 10, NOW);
        build.start();
        build.succeed("a".repeat(64), "seal", "digest", List.of("ok"), NOW);
        assertThatThrownBy(() -> build.fail(List.of("no"), NOW)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> build.succeed("b".repeat(64), "seal", null, List.of(), NOW)).isInstanceOf(IllegalStateException.class);
        assertThat(build.sha256()).isEqualTo("a".repeat(64));
        assertThat(build.jobs()).isEqualTo("digest");
        assertThat(build.logLines()).containsExactly("ok");
    }

    @Test
    void the_log_is_bounded_and_one_line_per_entry() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            lines.add("line " + i + "\nwith a break");
        }
        List<String> kept = List.of(Build.boundedLog(lines).split("\n"));
        assertThat(kept).hasSize(201).endsWith("(50 more lines not kept)");
        assertThat(kept.get(0)).isEqualTo("line 0 with a break");
    }
}
