package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.access.AccessAnswer.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The memory with a moved clock: ages count from the API's answer, versions only rise, pushes clear. */
class AccessMemoryTest {

    private static final Duration MEMORY = Duration.ofMinutes(30);
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final MovableClock clock = new MovableClock(T0);
    private final AccessMemory memory = new AccessMemory(clock, MEMORY, 1000);

    private static AccessAnswer allow(long version) {
        return new AccessAnswer(Kind.ALLOW, version, "allow");
    }

    private static AccessAnswer deny(long version) {
        return new AccessAnswer(Kind.DENY, version, "deny");
    }

    private long now() {
        return clock.millis();
    }

    @Test
    void aRestartedGateRemembersNoOne() {
        assertThat(new AccessMemory(clock, MEMORY, 10).recall("guestbook", 7)).isEmpty();
    }

    @ParameterizedTest(name = "{0} minutes after the answer -> remembered {1}")
    @CsvSource({"0, true", "1, true", "29, true", "30, false", "31, false", "600, false"})
    void aCopyLastsItsAgeFromTheAnswerWhateverIsReadInBetween(long minutes, boolean remembered) {
        memory.learn("guestbook", 7, allow(1), now());
        for (long m = 0; m < minutes; m++) {
            clock.move(Duration.ofMinutes(1));
            memory.recall("guestbook", 7); // reading never extends a copy's life
        }
        assertThat(memory.recall("guestbook", 7).isPresent()).isEqualTo(remembered);
    }

    @Test
    void aNewAnswerRestartsTheAgeOnlyOfThatPerson() {
        memory.learn("guestbook", 7, allow(1), now());
        memory.learn("guestbook", 8, allow(1), now());
        clock.move(Duration.ofMinutes(25));
        memory.learn("guestbook", 7, allow(1), now());
        clock.move(Duration.ofMinutes(10)); // t0 + 35 min
        assertThat(memory.recall("guestbook", 7)).get().extracting(AccessCopy::answeredAtMs)
                .isEqualTo(T0.plus(Duration.ofMinutes(25)).toEpochMilli());
        assertThat(memory.recall("guestbook", 8)).isEmpty();
    }

    @Test
    void aDenyReplacesAnAllowAndAnAllowADeny() {
        memory.learn("guestbook", 7, allow(1), now());
        clock.move(Duration.ofSeconds(31));
        memory.learn("guestbook", 7, deny(1), now());
        assertThat(memory.recall("guestbook", 7)).get().extracting(AccessCopy::decision).isEqualTo(Kind.DENY);
        clock.move(Duration.ofSeconds(31));
        memory.learn("guestbook", 7, allow(1), now());
        assertThat(memory.recall("guestbook", 7)).get().extracting(AccessCopy::decision).isEqualTo(Kind.ALLOW);
    }

    @Test
    void anAnswerToAnEarlierQuestionDoesNotReplaceALaterOne() {
        long early = now();
        clock.move(Duration.ofSeconds(1));
        memory.learn("guestbook", 7, deny(1), now());
        memory.learn("guestbook", 7, allow(1), early); // arrived late
        assertThat(memory.recall("guestbook", 7)).get().extracting(AccessCopy::decision).isEqualTo(Kind.DENY);
    }

    @Test
    void anUnknownAppDropsEveryCopyOfThatAppOnly() {
        memory.learn("guestbook", 7, allow(1), now());
        memory.learn("guestbook", 8, deny(1), now());
        memory.learn("notes", 7, allow(1), now());
        assertThat(memory.learn("guestbook", 9, new AccessAnswer(Kind.UNKNOWN_APP, -1, "404"), now())).isFalse();
        assertThat(memory.recall("guestbook", 7)).isEmpty();
        assertThat(memory.recall("guestbook", 8)).isEmpty();
        assertThat(memory.recall("notes", 7)).isPresent();
    }

    @Test
    void anUnusableAnswerChangesNothing() {
        memory.learn("guestbook", 7, allow(1), now());
        assertThat(memory.learn("guestbook", 7, new AccessAnswer(Kind.UNUSABLE, -1, "HTTP 401"), now())).isFalse();
        assertThat(memory.recall("guestbook", 7)).isPresent();
    }

    @Test
    void aNewerSharingVersionInAnyAnswerDropsTheAppsOlderCopies() {
        memory.learn("guestbook", 7, allow(3), now());
        memory.learn("guestbook", 8, allow(3), now());
        memory.learn("notes", 8, allow(1), now());
        memory.learn("guestbook", 9, deny(4), now());
        assertThat(memory.newestVersion("guestbook")).isEqualTo(4);
        assertThat(memory.recall("guestbook", 7)).isEmpty();
        assertThat(memory.recall("guestbook", 8)).isEmpty();
        assertThat(memory.recall("guestbook", 9)).isPresent();
        assertThat(memory.recall("notes", 8)).as("another app").isPresent();
        memory.cleanUp();
        assertThat(memory.size()).isEqualTo(2);
    }

    @Test
    void anAnswerOlderThanTheNewestVersionIsNeverRemembered() {
        memory.learn("guestbook", 7, allow(3), now());
        memory.sharingChanged("guestbook", 5);
        assertThat(memory.learn("guestbook", 7, allow(4), now())).isFalse();
        assertThat(memory.recall("guestbook", 7)).isEmpty();
        assertThat(memory.learn("guestbook", 7, allow(5), now())).isTrue();
        assertThat(memory.recall("guestbook", 7)).isPresent();
        assertThat(memory.newestVersion("guestbook")).as("versions never go back").isEqualTo(5);
    }

    @Test
    void aPushClearsTheAppAtOnceAndOlderAnswersStayOut() {
        memory.learn("guestbook", 7, allow(3), now());
        memory.learn("guestbook", 8, deny(3), now());
        memory.learn("notes", 7, allow(3), now());
        assertThat(memory.sharingChanged("guestbook", 4)).isEqualTo(2);
        assertThat(memory.recall("guestbook", 7)).isEmpty();
        assertThat(memory.recall("guestbook", 8)).isEmpty();
        assertThat(memory.recall("notes", 7)).isPresent();
        // an answer to a question asked before the change, arriving after the push
        memory.learn("guestbook", 7, allow(3), now());
        assertThat(memory.recall("guestbook", 7)).isEmpty();
    }

    @Test
    void aPushWithAVersionTheGateAlreadyHasStillClears() {
        memory.learn("guestbook", 7, allow(4), now());
        assertThat(memory.sharingChanged("guestbook", 4)).isEqualTo(1);
        assertThat(memory.recall("guestbook", 7)).isEmpty();
        assertThat(memory.sharingChanged("guestbook", 2)).isZero();
        assertThat(memory.newestVersion("guestbook")).isEqualTo(4);
    }

    @Test
    void aCopyFromTheFutureIsNotTrusted() {
        memory.learn("guestbook", 7, allow(1), now());
        clock.move(Duration.ofMinutes(-5)); // the clock was set back
        assertThat(memory.recall("guestbook", 7)).isEmpty();
    }

    @Test
    void theMemoryIsBoundedInSize() {
        AccessMemory small = new AccessMemory(clock, MEMORY, 100);
        LongStream.range(0, 1000).forEach(person -> small.learn("guestbook", person, allow(1), now()));
        small.cleanUp();
        assertThat(small.size()).isLessThanOrEqualTo(100);
        assertThat(LongStream.range(0, 1000).filter(p -> small.recall("guestbook", p).isPresent()).count())
                .isLessThanOrEqualTo(100);
    }

    @Test
    void expiredCopiesLeaveTheMemory() {
        LongStream.range(0, 50).forEach(person -> memory.learn("guestbook", person, allow(1), now()));
        clock.move(MEMORY);
        memory.cleanUp();
        assertThat(memory.size()).isZero();
    }

    @Test
    void settingsMustMakeSense() {
        assertThatThrownBy(() -> new AccessMemory(clock, Duration.ZERO, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AccessMemory(clock, MEMORY, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AccessMemory(null, MEMORY, 10)).isInstanceOf(NullPointerException.class);
    }
}
