package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.access.AccessAnswer.Kind;
import dev.qaldy.gate.access.AccessDecision.Source;
import dev.qaldy.gate.access.AccessDecision.Verdict;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import java.net.ConnectException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The access step end to end without a container: a fake control plane behind the client, a moved
 * clock, the real memory, policy and view of the control plane (whose background probe asks the same
 * fake; it is run before each request here, as the prober thread would have by then).
 */
class AccessCheckTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final String APP = "guestbook";

    /** What the fake control plane does with one question. */
    interface Api {
        AccessAnswer ask(String app, long personId) throws ControlPlaneUnavailable;
    }

    private final MovableClock clock = new MovableClock(T0);
    private final AtomicInteger calls = new AtomicInteger();
    private final Map<String, Integer> counted = new ConcurrentHashMap<>();
    private volatile Api api;
    private AccessCheck check;
    private UpstreamHealth health;

    @BeforeEach
    void start() {
        check = build(clock);
        Logger.getLogger(AccessCheckTest.class.getName()).setLevel(Level.WARNING);
    }

    private AccessCheck build(Clock withClock) {
        AccessCheck built = new AccessCheck();
        built.client = new AccessClient() {
            @Override
            public AccessAnswer ask(String app, long personId) throws ControlPlaneUnavailable {
                calls.incrementAndGet();
                return api.ask(app, personId);
            }
        };
        built.metrics = new AccessMetrics() {
            @Override
            public void decided(AccessDecision decision) {
                counted.merge(decision.metricSource(), 1, Integer::sum);
            }

            @Override
            public void called(Duration elapsed, boolean gotAnswer) {
            }

            @Override
            public void watch(AccessMemory memory) {
            }
        };
        health = new UpstreamHealth("control plane", withClock, Duration.ofMillis(500), () -> api.ask("probe", 0),
                Logger.getLogger(AccessCheckTest.class.getName()));
        built.health = health;
        built.clock = withClock;
        built.log = Logger.getLogger(AccessCheckTest.class.getName());
        built.freshness = "PT30S";
        built.memoryAge = "PT30M";
        built.maxEntries = 1000;
        built.sync = syncedOnce(); // in touch; SyncStateTest and the tests below check the rule itself
        built.start();
        return built;
    }

    /** A sync state whose monotonic clock stands still right after a sync: in touch for good. */
    private static SyncState syncedOnce() {
        SyncState state = new SyncState(() -> 0L, Duration.ofSeconds(10));
        state.pulled(0L);
        return state;
    }

    private static Session person(long id) {
        return new Session(id, "p" + id + "@example.com", "t" + id, T0, T0.plus(Duration.ofDays(1)));
    }

    private AccessDecision open(long personId) {
        health.probeIfDue();
        return check.check(APP, person(personId));
    }

    private static Api answers(Kind kind, long version) {
        return (app, person) -> new AccessAnswer(kind, version, kind.name());
    }

    private static Api fails(Throwable failure) {
        return (app, person) -> {
            if (failure instanceof ControlPlaneUnavailable c) {
                throw c;
            }
            throw (RuntimeException) failure;
        };
    }

    private static final Api DOWN = fails(new ControlPlaneUnavailable("connect refused", new ConnectException("refused")));

    // ---- freshness

    @Test
    void aFreshAnswerIsUsedWithoutAskingThenTheApiIsAskedAgain() {
        api = answers(Kind.ALLOW, 1);
        assertThat(open(7)).extracting(AccessDecision::verdict, AccessDecision::source).containsExactly(Verdict.ALLOW, Source.ASKED);
        clock.move(Duration.ofSeconds(29));
        assertThat(open(7)).extracting(AccessDecision::verdict, AccessDecision::source).containsExactly(Verdict.ALLOW, Source.FRESH_COPY);
        assertThat(calls).hasValue(1);
        clock.move(Duration.ofSeconds(1));
        api = answers(Kind.DENY, 1);
        assertThat(open(7)).extracting(AccessDecision::verdict, AccessDecision::source).containsExactly(Verdict.DENY, Source.ASKED);
        assertThat(calls).hasValue(2);
        clock.move(Duration.ofSeconds(10));
        assertThat(open(7)).extracting(AccessDecision::verdict, AccessDecision::source)
                .as("a fresh deny is used too").containsExactly(Verdict.DENY, Source.FRESH_COPY);
        assertThat(counted).containsEntry("asked", 1).containsEntry("fresh_copy", 1).containsEntry("refused", 2);
    }

    // ---- the 30-minute rule

    @Test
    void theMemoryCountsFromTheApisLastAllowNotFromTheStartOfTheOutage() {
        api = answers(Kind.ALLOW, 1);
        assertThat(open(7).source()).isEqualTo(Source.ASKED); // t0
        clock.set(T0.plus(Duration.ofMinutes(25)));
        assertThat(open(7).source()).isEqualTo(Source.ASKED); // re-asked and allowed at t0 + 25 min
        api = DOWN;
        clock.set(T0.plus(Duration.ofMinutes(40))); // the outage starts
        assertThat(open(7)).extracting(AccessDecision::verdict, AccessDecision::source)
                .containsExactly(Verdict.ALLOW, Source.OUTAGE_COPY);
        clock.set(T0.plus(Duration.ofMinutes(55)).minusMillis(1));
        assertThat(open(7).verdict()).isEqualTo(Verdict.ALLOW);
        clock.set(T0.plus(Duration.ofMinutes(55)));
        assertThat(open(7).verdict()).as("30 min after the last allow").isEqualTo(Verdict.UNAVAILABLE);
        clock.set(T0.plus(Duration.ofMinutes(56)));
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(counted).containsEntry("outage_copy", 2).containsEntry("refused", 2);
    }

    @Test
    void copiesUsedWithoutAskingDoNotRenewTheirAge() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        for (int s = 0; s < 29; s++) {
            clock.move(Duration.ofSeconds(1));
            assertThat(open(7).source()).isEqualTo(Source.FRESH_COPY);
        }
        api = DOWN;
        clock.set(T0.plus(Duration.ofMinutes(30)));
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    // ---- failure class × what is remembered, through the real memory

    static Stream<Arguments> failureTimesMemory() {
        List<Arguments> rows = new ArrayList<>();
        Map<String, Throwable> failures = Map.of(
                "connect refused", new ControlPlaneUnavailable("connect refused", new ConnectException("refused")),
                "HTTP 503", new ControlPlaneUnavailable("access answered HTTP 503"),
                "timeout", new TimeoutException("1000 ms"),
                "bulkhead full", new BulkheadException("full"),
                "gate error", new IllegalStateException("the service token is not loaded"));
        failures.forEach((name, failure) -> {
            boolean controlPlane = !name.equals("gate error");
            rows.add(Arguments.of(name, failure, "allow", controlPlane ? Verdict.ALLOW : Verdict.UNAVAILABLE));
            rows.add(Arguments.of(name, failure, "deny", controlPlane ? Verdict.DENY : Verdict.UNAVAILABLE));
            rows.add(Arguments.of(name, failure, "none", Verdict.UNAVAILABLE));
            rows.add(Arguments.of(name, failure, "expired allow", Verdict.UNAVAILABLE));
        });
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}, remembered {2} -> {3}")
    @MethodSource("failureTimesMemory")
    void aFailureUsesOnlyAYoungCopyAndOnlyWhenTheControlPlaneFailed(String name, Throwable failure, String remembered,
            Verdict expected) {
        switch (remembered) {
            case "allow" -> {
                api = answers(Kind.ALLOW, 1);
                open(7);
                clock.move(Duration.ofMinutes(10));
            }
            case "deny" -> {
                api = answers(Kind.DENY, 1);
                open(7);
                clock.move(Duration.ofMinutes(10));
            }
            case "expired allow" -> {
                api = answers(Kind.ALLOW, 1);
                open(7);
                clock.move(Duration.ofMinutes(30));
            }
            default -> {
            }
        }
        api = fails(failure);
        AccessDecision decision = open(7);
        assertThat(decision.verdict()).isEqualTo(expected);
        if (expected == Verdict.ALLOW) {
            assertThat(decision.header()).isEqualTo("outage-copy");
        } else {
            assertThat(decision.header()).isEqualTo("refused");
        }
    }

    @Test
    void aPersonTheGateNeverSawGets503NeverA403() {
        api = DOWN;
        assertThat(open(9).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(health.view().state()).as("one call without an answer: the probe decides").isEqualTo(UpstreamHealth.State.SUSPECT);
        health.probeIfDue();
        assertThat(health.failing()).isTrue();
        assertThat(open(9).verdict()).as("not asked: the view says failing").isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void anUnusableAnswerIs503AndNeverFallsBackOnTheCopy() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        clock.move(Duration.ofMinutes(1));
        api = answers(Kind.UNUSABLE, -1);
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        api = DOWN; // the copy is still there for a real failure
        assertThat(open(7).verdict()).isEqualTo(Verdict.ALLOW);
    }

    // ---- what the API says no to wins

    @Test
    void aDenyReplacesTheAllowAlsoWhenTheApiFailsRightAfter() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        clock.move(Duration.ofMinutes(1));
        api = answers(Kind.DENY, 2);
        assertThat(open(7).verdict()).isEqualTo(Verdict.DENY);
        clock.move(Duration.ofMinutes(1));
        api = DOWN;
        assertThat(open(7).verdict()).isEqualTo(Verdict.DENY);
    }

    @Test
    void anUnknownAppForgetsEveryoneOfIt() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        clock.move(Duration.ofMinutes(1));
        api = answers(Kind.UNKNOWN_APP, -1);
        assertThat(open(8).verdict()).isEqualTo(Verdict.UNKNOWN_APP);
        api = DOWN;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aPushClearsTheAppSoARevokedPersonIsNeverLetInFromTheCopy() {
        api = answers(Kind.ALLOW, 3);
        open(7);
        open(8);
        assertThat(check.sharingChanged(APP, 4)).isEqualTo(2);
        api = DOWN; // the API dies right after the revocation
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(open(8).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aPushWhileTheQuestionIsOutStillClears() {
        api = answers(Kind.ALLOW, 3);
        open(7);
        clock.move(Duration.ofMinutes(1));
        api = (app, person) -> {
            check.sharingChanged(APP, 4);
            throw new ControlPlaneUnavailable("access answered HTTP 503");
        };
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void anAnswerOlderThanAPushIsUsedOnceButNeverRemembered() {
        check.sharingChanged(APP, 5);
        api = answers(Kind.ALLOW, 4); // asked before the change committed
        assertThat(open(7).verdict()).isEqualTo(Verdict.ALLOW);
        clock.move(Duration.ofSeconds(1));
        assertThat(open(7).source()).as("not remembered: asked again").isEqualTo(Source.ASKED);
        api = DOWN;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aNewerVersionSeenForAnyoneDropsEveryOlderCopyOfTheApp() {
        api = answers(Kind.ALLOW, 3);
        open(7);
        open(8);
        clock.move(Duration.ofMinutes(1));
        api = answers(Kind.ALLOW, 4);
        open(8); // the sharing changed; person 7 was not asked since
        api = DOWN;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(open(8).verdict()).isEqualTo(Verdict.ALLOW);
    }

    // ---- fail closed

    @Test
    void aNullAnswerIsNeverAnAllow() {
        api = (app, person) -> null;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aMissingSessionIsNeverAnAllow() {
        api = answers(Kind.ALLOW, 1);
        assertThat(check.check(APP, null).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aBrokenClockIsNeverAnAllow() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        Clock broken = new Clock() {
            @Override
            public Instant instant() {
                throw new IllegalStateException("no time");
            }

            @Override
            public ZoneId getZone() {
                return clock.getZone();
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
        check.clock = broken;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void aBrokenPolicyOrMemoryIsNeverAnAllow() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        check.memory = null;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        check = build(clock);
        check.policy = null;
        assertThat(open(7).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @Test
    void failingMetricsChangeNoDecision() {
        check.metrics = new AccessMetrics() {
            @Override
            public void decided(AccessDecision decision) {
                throw new IllegalStateException("no registry");
            }

            @Override
            public void called(Duration elapsed, boolean gotAnswer) {
                throw new IllegalStateException("no registry");
            }
        };
        api = answers(Kind.ALLOW, 1);
        assertThat(open(7).verdict()).isEqualTo(Verdict.ALLOW);
        api = answers(Kind.DENY, 1);
        assertThat(open(8).verdict()).isEqualTo(Verdict.DENY);
        api = DOWN;
        clock.move(Duration.ofMinutes(1));
        assertThat(open(7).verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(open(9).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    // ---- issue 14: the gate's one view of the control plane

    @Test
    void whileTheViewIsInDoubtAPersonWithACopyIsAnsweredFromItAndOneWithoutIsAsked() {
        api = answers(Kind.ALLOW, 1);
        check.check(APP, person(7));
        clock.move(Duration.ofMinutes(1)); // past freshness: it would ask
        health.call().failed(UpstreamHealth.Failure.NO_ANSWER, "the heartbeat got no answer within 1 s");
        int asked = calls.get();
        assertThat(check.check(APP, person(7))).as("nobody on a copy waits for a control plane in doubt")
                .extracting(AccessDecision::verdict, AccessDecision::source).containsExactly(Verdict.ALLOW, Source.OUTAGE_COPY);
        assertThat(calls.get()).isEqualTo(asked);
        assertThat(check.check(APP, person(8)).verdict()).as("no copy: asked all the same").isEqualTo(Verdict.ALLOW);
        assertThat(calls.get()).isEqualTo(asked + 1);
        assertThat(health.view().state()).as("its answer cleared the doubt").isEqualTo(UpstreamHealth.State.UP);
        assertThat(check.check(APP, person(7)).source()).isEqualTo(Source.ASKED);
    }

    @Test
    void oneCallWithoutAnAnswerTurnsTheViewAndNoPersonWaitsForTheApiUntilItsProbeFindsItBack() {
        api = answers(Kind.ALLOW, 1);
        open(7);
        clock.move(Duration.ofMinutes(1));
        api = fails(new TimeoutException("1000 ms"));
        assertThat(open(7).source()).isEqualTo(Source.OUTAGE_COPY);
        assertThat(health.view().state()).as("one timeout: suspect").isEqualTo(UpstreamHealth.State.SUSPECT);
        health.probeIfDue();
        assertThat(health.failing()).as("one timeout and the probe made at once: the whole gate knows").isTrue();
        int asked = calls.get();
        for (int i = 0; i < 5; i++) {
            clock.move(Duration.ofSeconds(1));
            assertThat(open(7)).extracting(AccessDecision::verdict, AccessDecision::source)
                    .containsExactly(Verdict.ALLOW, Source.OUTAGE_COPY);
            assertThat(open(8).verdict()).as("never seen: 503, not 403").isEqualTo(Verdict.UNAVAILABLE);
        }
        assertThat(calls.get()).as("no request asked while the view said failing").isEqualTo(asked);

        api = answers(Kind.DENY, 1);
        clock.move(Duration.ofSeconds(1));
        assertThat(open(7)).as("the probe found the API back: asked again, and its deny decides")
                .extracting(AccessDecision::verdict, AccessDecision::source).containsExactly(Verdict.DENY, Source.ASKED);
        assertThat(calls.get()).isEqualTo(asked + 1);
    }

    @Test
    void errorAnswersTurnTheViewOnlyThreeInARowAndAnAnswerOfTheApiIsNeverAFailure() {
        api = answers(Kind.UNKNOWN_APP, 1);
        for (int i = 0; i < 5; i++) {
            open(7);
        }
        assertThat(health.failing()).as("404s are answers").isFalse();
        api = fails(new ControlPlaneUnavailable("access answered HTTP 503"));
        health = new UpstreamHealth("control plane", clock, Duration.ofMillis(500), () -> {
            throw new java.io.IOException("HTTP 503");
        }, Logger.getLogger(AccessCheckTest.class.getName()));
        check.health = health;
        open(7);
        open(7);
        assertThat(health.failing()).isFalse();
        open(7);
        assertThat(health.failing()).isTrue();
        int asked = calls.get();
        open(7);
        assertThat(calls.get()).isEqualTo(asked);
    }

    @Test
    void badDurationsStopTheGateAtStart() {
        AccessCheck bad = new AccessCheck();
        bad.clock = clock;
        bad.log = Logger.getLogger(AccessCheckTest.class.getName());
        bad.metrics = new AccessMetrics();
        bad.freshness = "30s";
        bad.memoryAge = "PT30M";
        bad.maxEntries = 10;
        assertThatThrownBy(bad::start)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("qaldy.gate.access-freshness");
    }

    // ---- issue 3: copies only while in touch with the sharing changes

    @Test
    void a_gate_that_stalled_asks_instead_of_using_a_fresh_copy_and_refuses_from_the_copy_when_the_api_is_gone() {
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        SyncState sync = new SyncState(nanos::get, Duration.ofSeconds(10));
        sync.pulled(0);
        check.sync = sync;
        api = answers(Kind.ALLOW, 1);
        assertThat(open(1).source()).isEqualTo(Source.ASKED);
        api = answers(Kind.DENY, 1);
        assertThat(open(2).verdict()).isEqualTo(Verdict.DENY);
        nanos.set(Duration.ofSeconds(1).toNanos());
        clock.move(Duration.ofSeconds(1));
        assertThat(open(1).source()).as("in touch: the fresh copy").isEqualTo(Source.FRESH_COPY);

        // SIGSTOP for 12 s: no watchdog tick, no sync; the revocation's push was missed
        nanos.addAndGet(Duration.ofSeconds(12).toNanos());
        clock.move(Duration.ofSeconds(12));
        api = DOWN;
        int before = calls.get();
        AccessDecision allowedBefore = open(1);
        assertThat(calls.get()).as("the fresh copy is not used: the gate asks").isEqualTo(before + 1);
        assertThat(allowedBefore.verdict()).as("out of touch: no copy stands in").isEqualTo(Verdict.UNAVAILABLE);
        assertThat(open(2).verdict()).as("a remembered deny is not used either").isEqualTo(Verdict.UNAVAILABLE);

        sync.tick();
        sync.pulled(nanos.get()); // synced again, then the API fails
        api = DOWN;
        clock.move(Duration.ofSeconds(30)); // past the freshness window
        assertThat(open(1).source()).isEqualTo(Source.OUTAGE_COPY);
    }

    @Test
    void copies_stand_in_during_an_outage_that_began_while_in_touch() {
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        SyncState sync = new SyncState(nanos::get, Duration.ofSeconds(10));
        sync.pulled(0);
        check.sync = sync;
        api = answers(Kind.ALLOW, 1);
        assertThat(open(1).allowed()).isTrue();
        nanos.set(Duration.ofSeconds(3).toNanos());
        clock.move(Duration.ofMinutes(1));
        api = DOWN;
        AccessDecision fromCopy = open(1);
        assertThat(fromCopy.allowed()).isTrue();
        assertThat(fromCopy.source()).isEqualTo(Source.OUTAGE_COPY);
        for (int i = 0; i < 40; i++) { // 20 s more of outage; the watchdog ticks on
            nanos.addAndGet(Duration.ofMillis(500).toNanos());
            sync.tick();
        }
        assertThat(open(1).source()).as("the outage began in touch").isEqualTo(Source.OUTAGE_COPY);
    }

    @Test
    void a_pulled_change_the_push_already_brought_keeps_the_copies_the_api_gave_since() {
        check.sharingChanged(APP, 2); // the push
        api = answers(Kind.ALLOW, 2);
        assertThat(open(1).source()).isEqualTo(Source.ASKED);
        assertThat(check.pulledChange(APP, 2)).as("the same change, pulled").isZero();
        assertThat(check.pulledChange(APP, 1)).as("an older one").isZero();
        api = DOWN;
        clock.move(Duration.ofMinutes(1));
        assertThat(open(1).source()).as("the copy of version 2 survived the pull").isEqualTo(Source.OUTAGE_COPY);
        assertThat(check.pulledChange(APP, 3)).as("a change the push missed").isEqualTo(1);
        assertThat(open(1).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }
}
