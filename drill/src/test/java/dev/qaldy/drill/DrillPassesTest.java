package dev.qaldy.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DrillPassesTest {

    @Test
    void both_is_kill_and_db_and_all_adds_the_cut() {
        assertThat(Drill.passes("both")).containsExactly("kill", "db");
        assertThat(Drill.passes("all")).containsExactly("kill", "db", "cut");
    }

    @Test
    void a_list_keeps_its_order() {
        assertThat(Drill.passes("cut")).containsExactly("cut");
        assertThat(Drill.passes("cut,kill")).isEqualTo(List.of("cut", "kill"));
    }

    @Test
    void an_unknown_pass_an_empty_one_or_a_repeat_is_refused_with_the_choices() {
        for (String bad : List.of("", "partition", "kill,", "kill,kill", "kill,both")) {
            assertThatThrownBy(() -> Drill.passes(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("kill, db, cut, both, all");
        }
    }
}
