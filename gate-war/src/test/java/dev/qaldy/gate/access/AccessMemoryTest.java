package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.access.AccessAnswer.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
    void answersRacingForOnePersonLeaveTheLatestQuestionsCopy() throws Exception {
        long start = now();
        clock.move(Duration.ofSeconds(10));
        int threads = 4;
        int perThread = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) { // questions asked at start + 1..8000 ms, interleaved
                        long asked = start + 1 + (long) i * threads + offset;
                        memory.learn(new String("guestbook"), 7, i % 2 == 0 ? allow(1) : deny(1), asked);
                        memory.recall("guestbook", 7);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        AccessCopy copy = memory.recall("guestbook", 7).orElseThrow();
        assertThat(copy.answeredAtMs()).isEqualTo(start + (long) perThread * threads);
        assertThat(memory.size()).isEqualTo(1);
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
    void readsAloneFreeExpiredCopies() { // reads are quiet, but still drive expiry (during an outage nothing is written)
        LongStream.range(0, 50).forEach(person -> memory.learn("guestbook", person, allow(1), now()));
        memory.recall("guestbook", 0);
        clock.move(MEMORY.plusMillis(AccessMemory.MAINTENANCE_INTERVAL_MS));
        assertThat(memory.recall("guestbook", 1)).isEmpty();
        assertThat(memory.size()).isZero();
        assertThat(memory.appsTracked()).isZero();
    }

    @Test
    void theFirstAnswerAfterTheAppsVersionEntryExpiredIsRemembered() {
        // Found by GateOutageIT: an app with no answer or push for the whole access memory had its
        // version entry expire; the first answer after that was used once and not remembered, so the
        // person got 503 when the control plane died right after the gate had asked.
        memory.learn("guestbook", 7, allow(4), now());
        clock.move(MEMORY.plusSeconds(1));
        long asked = now();
        clock.move(Duration.ofMillis(40));
        assertThat(memory.learn("guestbook", 7, allow(4), asked)).isTrue();
        assertThat(memory.recall("guestbook", 7)).isPresent();
        assertThat(memory.newestVersion("guestbook")).isEqualTo(4);
    }

    @Test
    void theAppsVersionsAreBoundedAndAnEvictedAppsCopiesAreNotTrusted() {
        AccessMemory few = new AccessMemory(clock, MEMORY, 10_000, 3);
        for (int a = 0; a < 50; a++) {
            few.learn("app" + a, 7, allow(1), now());
        }
        few.cleanUp();
        assertThat(few.appsTracked()).isLessThanOrEqualTo(3);
        long trusted = 0;
        for (int a = 0; a < 50; a++) {
            boolean versionKept = few.newestVersion("app" + a) != Long.MIN_VALUE;
            boolean copy = few.recall("app" + a, 7).isPresent();
            assertThat(!copy || versionKept).as("app%d: a copy without its app's version entry", a).isTrue();
            trusted += copy ? 1 : 0;
        }
        assertThat(trusted).isLessThanOrEqualTo(3);
    }

    @Test
    void anAnswerAskedBeforeAPushIsNeverTrustedEvenWhenThePushedVersionWasEvicted() {
        AccessMemory few = new AccessMemory(clock, MEMORY, 10_000, 2);
        long askedBeforeThePushes = now();
        clock.move(Duration.ofSeconds(1));
        for (int a = 0; a < 20; a++) {
            few.learn("app" + a, 7, allow(4), now());
            few.sharingChanged("app" + a, 5); // a revocation; most of these entries are evicted below
        }
        few.cleanUp();
        clock.move(Duration.ofSeconds(1));
        for (int a = 0; a < 20; a++) {
            // the answer to a question asked before the revocation arrives late, with the old version
            assertThat(few.learn("app" + a, 7, allow(4), askedBeforeThePushes)).as("app%d", a).isFalse();
            assertThat(few.recall("app" + a, 7)).as("app%d", a).isEmpty();
        }
        // a question asked now gets the newest version and is remembered again
        assertThat(few.learn("app0", 7, allow(5), now())).isTrue();
        assertThat(few.recall("app0", 7)).isPresent();
    }

    @Test
    void anEvictedAppsCopiesDoNotComeBackWithItsNextEntry() {
        AccessMemory few = new AccessMemory(clock, MEMORY, 10_000, 1);
        few.learn("guestbook", 7, allow(3), now());
        clock.move(Duration.ofSeconds(1));
        // a newcomer asked about again and again wins guestbook's place (TinyLFU admits by frequency)
        for (int i = 0; i < 100 && few.newestVersion("guestbook") != Long.MIN_VALUE; i++) {
            clock.move(Duration.ofSeconds(1));
            few.learn("notes", 8, allow(1), now());
            few.cleanUp();
        }
        assertThat(few.newestVersion("guestbook")).as("guestbook's entry was evicted").isEqualTo(Long.MIN_VALUE);
        assertThat(few.recall("guestbook", 7)).isEmpty();
        boolean kept = false; // the app's entry again, same version (TinyLFU may turn it away a few times)
        for (int i = 0; i < 100 && !kept; i++) {
            clock.move(Duration.ofSeconds(1));
            kept = few.learn("guestbook", 9, allow(3), now());
            few.cleanUp();
        }
        assertThat(few.recall("guestbook", 9)).isPresent();
        assertThat(few.recall("guestbook", 7)).as("a copy from before the eviction").isEmpty();
    }

    @Test
    void anAppsVersionLivesNoLongerThanTheAccessMemoryAfterItsLastAnswerOrPush() {
        memory.learn("guestbook", 7, allow(3), now());
        clock.move(Duration.ofMinutes(20));
        memory.sharingChanged("notes", 2);
        clock.move(Duration.ofMinutes(10)); // guestbook: 30 min since its answer
        memory.cleanUp();
        assertThat(memory.newestVersion("guestbook")).isEqualTo(Long.MIN_VALUE);
        assertThat(memory.newestVersion("notes")).isEqualTo(2);
        assertThat(memory.appsTracked()).isEqualTo(1);
        clock.move(Duration.ofMinutes(20));
        memory.cleanUp();
        assertThat(memory.appsTracked()).isZero();
    }

    @Test
    void anAnswerOlderThanTheMemoryIsNotRemembered() {
        long asked = now();
        clock.move(MEMORY);
        assertThat(memory.learn("guestbook", 7, allow(1), asked)).isFalse();
        assertThat(memory.recall("guestbook", 7)).isEmpty();
    }

    @Test
    void settingsMustMakeSense() {
        assertThatThrownBy(() -> new AccessMemory(clock, Duration.ZERO, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AccessMemory(clock, MEMORY, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AccessMemory(clock, MEMORY, 10, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AccessMemory(null, MEMORY, 10)).isInstanceOf(NullPointerException.class);
    }
}
