package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.access.MovableClock;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A starting gate's load of the sign-outs made before it started: every page, bounded, only unexpired marks kept. */
class SignOutMarksTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final MovableClock clock = new MovableClock(T0);
    private final SignedOutSessions list = new SignedOutSessions(clock, 100);
    private final List<Long> asked = new ArrayList<>();

    @Test
    void everyPageIsReadFollowingTheCursorAndOnlyUnexpiredMarksAreKept() throws Exception {
        Map<Long, JsonObject> pages = Map.of(
                0L, page(7, true, "a", T0.plusSeconds(3600), "gone", T0.minusSeconds(1)),
                7L, page(9, false, "b", T0.plus(Duration.ofHours(12))));

        long read = SignOutMarks.readAll(after -> { asked.add(after); return pages.get(after); }, list);

        assertThat(read).isEqualTo(3);
        assertThat(asked).containsExactly(0L, 7L);
        assertThat(list.contains("a")).isTrue();
        assertThat(list.contains("b")).isTrue();
        assertThat(list.contains("gone")).as("expired by the gate's clock").isFalse();
        clock.set(T0.plusSeconds(3600));
        assertThat(list.contains("a")).as("kept until its token's exp only").isFalse();
        assertThat(list.contains("b")).isTrue();
    }

    @Test
    void aFailedPageFailsTheLoadAndKeepsWhatWasRead() {
        assertThatThrownBy(() -> SignOutMarks.readAll(after -> {
            if (after == 0) {
                return page(4, true, "a", T0.plusSeconds(60));
            }
            throw new IOException("connection refused");
        }, list)).isInstanceOf(IOException.class);
        assertThat(list.contains("a")).isTrue();
    }

    @Test
    void anAnswerOfAnotherShapeOrAnOlderCursorIsAFailure() {
        assertThatThrownBy(() -> SignOutMarks.readAll(after -> Json.createObjectBuilder().add("oops", 1).build(), list))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> SignOutMarks.readAll(after -> after == 0 ? page(5, true, "a", T0.plusSeconds(60))
                : page(2, true, "b", T0.plusSeconds(60)), list)).isInstanceOf(IOException.class).hasMessageContaining("older");
        JsonObject noExp = Json.createObjectBuilder().add("sessions", Json.createArrayBuilder().add(Json.createObjectBuilder().add("jti", "x")))
                .add("next", 1).add("more", false).build();
        assertThatThrownBy(() -> SignOutMarks.readAll(after -> noExp, list)).isInstanceOf(IOException.class);
    }

    @Test
    void theLoadStopsAtTheListsBound() throws Exception {
        SignedOutSessions small = new SignedOutSessions(clock, 3);
        long read = SignOutMarks.readAll(after -> { asked.add(after); return page(after + 2, true, "t" + after, T0.plusSeconds(60), "u" + after, T0.plusSeconds(60)); }, small);
        assertThat(read).isEqualTo(4);
        assertThat(asked).containsExactly(0L, 2L);
    }

    /** A page as the control plane answers it: {@code next}, {@code more}, then (jti, exp) pairs. */
    static JsonObject page(long next, boolean more, Object... marks) {
        JsonArrayBuilder sessions = Json.createArrayBuilder();
        for (int i = 0; i < marks.length; i += 2) {
            sessions.add(Json.createObjectBuilder().add("jti", (String) marks[i]).add("exp", ((Instant) marks[i + 1]).getEpochSecond()));
        }
        return Json.createObjectBuilder().add("sessions", sessions).add("next", next).add("more", more).build();
    }
}
