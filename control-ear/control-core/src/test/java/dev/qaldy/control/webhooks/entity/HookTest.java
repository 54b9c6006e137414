package dev.qaldy.control.webhooks.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.platform.control.InvalidInput;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Which secrets of a hook were in force when (issue 17: rolling a secret, and the hand-over's check at receipt). */
class HookTest {

    private static final Instant MADE = Instant.parse("2026-12-05T10:00:00Z");

    private static Hook hook() {
        return new Hook(new App("memo", new Person("owner@example.com", "hash", MADE), MADE), "ping", "digest", "first", "owner@example.com", MADE);
    }

    @Test
    void a_new_hook_has_its_one_secret_from_its_creation_on() {
        Hook hook = hook();
        assertThat(hook.secretsAt(MADE.minusMillis(1))).isEmpty();
        assertThat(hook.secretsAt(MADE)).containsExactly("first");
        assertThat(hook.secretsAt(MADE.plus(Duration.ofDays(400)))).containsExactly("first");
    }

    @Test
    void after_a_roll_the_previous_secret_stays_in_force_for_the_time_chosen_and_no_longer() {
        Hook hook = hook();
        Instant rolled = MADE.plus(Duration.ofHours(2));
        hook.roll("second", rolled, Duration.ofHours(24));

        assertThat(hook.secretsAt(rolled.minusMillis(1))).as("received before the roll").containsExactly("first");
        assertThat(hook.secretsAt(rolled)).containsExactly("second", "first");
        assertThat(hook.secretsAt(rolled.plus(Duration.ofHours(24)).minusMillis(1))).containsExactly("second", "first");
        assertThat(hook.secretsAt(rolled.plus(Duration.ofHours(24)))).containsExactly("second");
        assertThat(hook.previousUntil()).isEqualTo(rolled.plus(Duration.ofHours(24)));
        assertThat(hook.previousAcceptedUntil(rolled)).isEqualTo(rolled.plus(Duration.ofHours(24)));
        assertThat(hook.previousAcceptedUntil(rolled.plus(Duration.ofHours(24)))).isNull();
    }

    @Test
    void a_roll_with_nothing_kept_stops_the_old_secret_for_new_deliveries_at_once_and_a_second_roll_forgets_the_oldest() {
        Hook hook = hook();
        Instant rolled = MADE.plusSeconds(60);
        hook.roll("second", rolled, Duration.ofHours(1));
        Instant again = rolled.plusSeconds(60);
        hook.roll("third", again, Duration.ZERO);

        assertThat(hook.secretsAt(again)).containsExactly("third");
        assertThat(hook.previousAcceptedUntil(again)).as("nothing kept").isNull();
        assertThat(hook.secretsAt(again.minusMillis(1))).as("a delivery checked at the edge before the roll").containsExactly("second");
        assertThat(hook.secretsAt(rolled.minusMillis(1))).as("the oldest is forgotten").doesNotContain("first");
    }

    @Test
    void the_previous_secret_is_kept_at_most_seven_days() {
        Hook hook = hook();
        assertThatThrownBy(() -> hook.roll("second", MADE, Duration.ofDays(7).plusSeconds(1)))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("7 days");
        assertThatThrownBy(() -> hook.roll("second", MADE, Duration.ofSeconds(-1))).isInstanceOf(InvalidInput.class);
        assertThat(hook.secretsAt(MADE)).containsExactly("first");
    }
}
