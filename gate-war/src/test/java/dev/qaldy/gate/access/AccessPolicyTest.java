package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.access.AccessAnswer.Kind;
import dev.qaldy.gate.access.AccessDecision.Source;
import dev.qaldy.gate.access.AccessDecision.Verdict;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.ws.rs.ProcessingException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceDefinitionException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The policy as a table: (what asking gave) × (what is remembered) → verdict and source. Only an
 * allow answer, a fresh allow copy, or a remembered allow during a control-plane failure allows.
 */
class AccessPolicyTest {

    private static final Duration FRESH = Duration.ofSeconds(30);
    private static final Duration MEMORY = Duration.ofMinutes(30);
    private static final long NOW = 1_800_000_000_000L;

    private final AccessPolicy policy = new AccessPolicy(FRESH, MEMORY);

    /** What the memory may hold: by name, for readable test names. */
    enum Remembered {
        NONE(null),
        ALLOW(new AccessCopy(Kind.ALLOW, 3, NOW - Duration.ofMinutes(10).toMillis())),
        DENY(new AccessCopy(Kind.DENY, 3, NOW - Duration.ofMinutes(10).toMillis())),
        ALLOW_AT_EDGE(new AccessCopy(Kind.ALLOW, 3, NOW - MEMORY.toMillis() + 1)),
        EXPIRED_ALLOW(new AccessCopy(Kind.ALLOW, 3, NOW - MEMORY.toMillis())),
        EXPIRED_DENY(new AccessCopy(Kind.DENY, 3, NOW - MEMORY.toMillis() - 1)),
        ALLOW_FROM_THE_FUTURE(new AccessCopy(Kind.ALLOW, 3, NOW + 1000));

        final AccessCopy copy;

        Remembered(AccessCopy copy) {
            this.copy = copy;
        }
    }

    // ---- answers: the API speaking decides, whatever is remembered

    static Stream<Arguments> answers() {
        List<Arguments> rows = new ArrayList<>();
        for (Remembered remembered : Remembered.values()) {
            rows.add(Arguments.of(Kind.ALLOW, remembered, Verdict.ALLOW));
            rows.add(Arguments.of(Kind.DENY, remembered, Verdict.DENY));
            rows.add(Arguments.of(Kind.UNKNOWN_APP, remembered, Verdict.UNKNOWN_APP));
            // another 4xx or an unreadable 2xx is not an allow and never falls back on the copy
            rows.add(Arguments.of(Kind.UNUSABLE, remembered, Verdict.UNAVAILABLE));
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "answer {0}, remembered {1} -> {2}")
    @MethodSource("answers")
    void answersDecideAndTheCopyNeverReplacesThem(Kind kind, Remembered remembered, Verdict verdict) {
        AccessDecision decision = policy.decide(answered(kind), remembered.copy, NOW);
        assertThat(decision.verdict()).isEqualTo(verdict);
        assertThat(decision.source()).isEqualTo(Source.ASKED);
    }

    // ---- failures × remembered

    static Stream<Arguments> failures() {
        return Stream.of(
                // control-plane failures: connect error, reset, timeout, 5xx, and the question not asked and full bulkhead they cause
                Arguments.of(new ControlPlaneUnavailable("connect refused", new ConnectException("refused")), FailureClass.CONTROL_PLANE),
                Arguments.of(new ControlPlaneUnavailable("access answered HTTP 503"), FailureClass.CONTROL_PLANE),
                Arguments.of(new TimeoutException("1000 ms"), FailureClass.CONTROL_PLANE),
                Arguments.of(new ControlPlaneUnavailable("the control plane has been failing since 2026-12-01T10:00:00Z (timeout); "
                        + "not asked"), FailureClass.CONTROL_PLANE),
                Arguments.of(new BulkheadException("full"), FailureClass.CONTROL_PLANE),
                Arguments.of(new ProcessingException(new ConnectException("refused")), FailureClass.CONTROL_PLANE),
                Arguments.of(new ProcessingException(new SocketTimeoutException("Read timed out")), FailureClass.CONTROL_PLANE),
                Arguments.of(new IllegalStateException("wrapped", new ControlPlaneUnavailable("x")), FailureClass.CONTROL_PLANE),
                // everything else is the gate's own error
                Arguments.of(new ProcessingException("no message body reader", new IllegalStateException("x")), FailureClass.GATE),
                Arguments.of(new IllegalStateException("the service token is not loaded"), FailureClass.GATE),
                Arguments.of(new NullPointerException(), FailureClass.GATE),
                Arguments.of(new FaultToleranceDefinitionException("bad config"), FailureClass.GATE),
                Arguments.of(new RuntimeException("boom"), FailureClass.GATE));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("failures")
    void failuresAreClassified(Throwable failure, FailureClass expected) {
        assertThat(FailureClass.of(failure)).isEqualTo(expected);
    }

    static Stream<Arguments> failuresTimesRemembered() {
        List<Arguments> rows = new ArrayList<>();
        failures().forEach(failure -> {
            Throwable t = (Throwable) failure.get()[0];
            boolean controlPlane = failure.get()[1] == FailureClass.CONTROL_PLANE;
            for (Remembered remembered : Remembered.values()) {
                Verdict verdict;
                if (!controlPlane) {
                    verdict = Verdict.UNAVAILABLE; // a gate error never uses the copy
                } else {
                    verdict = switch (remembered) {
                        case ALLOW, ALLOW_AT_EDGE -> Verdict.ALLOW;
                        case DENY -> Verdict.DENY;
                        // never a 403 for someone the gate does not remember; never an allow past its age
                        case NONE, EXPIRED_ALLOW, EXPIRED_DENY, ALLOW_FROM_THE_FUTURE -> Verdict.UNAVAILABLE;
                    };
                }
                rows.add(Arguments.of(t, remembered, verdict));
            }
        });
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}, remembered {1} -> {2}")
    @MethodSource("failuresTimesRemembered")
    void failuresUseOnlyAYoungCopyAndOnlyForTheControlPlane(Throwable failure, Remembered remembered, Verdict verdict) {
        AccessDecision decision = policy.decide(new AccessOutcome.Failed(failure), remembered.copy, NOW);
        assertThat(decision.verdict()).isEqualTo(verdict);
        if (verdict == Verdict.ALLOW || verdict == Verdict.DENY) {
            assertThat(decision.source()).isEqualTo(Source.OUTAGE_COPY);
        }
    }

    // ---- the freshness window

    @ParameterizedTest(name = "{0} {1} ms old -> {2}")
    @CsvSource({
        "ALLOW, 0, ALLOW",
        "ALLOW, 29999, ALLOW",
        "ALLOW, 30000, ask",
        "ALLOW, 600000, ask",
        "DENY, 0, DENY",
        "DENY, 29999, DENY",
        "DENY, 30000, ask",
        "ALLOW, -1, ask", // from the future: no age to trust
    })
    void aFreshCopyIsUsedWithoutAsking(Kind kind, long ageMs, String expected) {
        AccessCopy copy = new AccessCopy(kind, 3, NOW - ageMs);
        var decision = policy.withoutAsking(copy, NOW);
        if (expected.equals("ask")) {
            assertThat(decision).isEmpty();
        } else {
            assertThat(decision).get().extracting(AccessDecision::verdict).isEqualTo(Verdict.valueOf(expected));
            assertThat(decision.get().source()).isEqualTo(Source.FRESH_COPY);
        }
    }

    @Test
    void noCopyMeansAsk() {
        assertThat(policy.withoutAsking(null, NOW)).isEmpty();
    }

    @Test
    void aFreshnessLongerThanTheMemoryIsCutAtTheMemory() {
        AccessPolicy odd = new AccessPolicy(Duration.ofHours(2), Duration.ofMinutes(30));
        assertThat(odd.withoutAsking(new AccessCopy(Kind.ALLOW, 1, NOW - Duration.ofMinutes(31).toMillis()), NOW)).isEmpty();
    }

    @Test
    void copiesNotTrustedRefuseEvenARememberedAllowAndSaySo() {
        AccessDecision decision = policy.decide(new AccessOutcome.Failed(new ControlPlaneUnavailable("connect timed out")),
                Remembered.ALLOW.copy, NOW, false);
        assertThat(decision.verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(decision.source()).isEqualTo(AccessDecision.Source.OUT_OF_TOUCH);
        assertThat(policy.decide(new AccessOutcome.Failed(new ControlPlaneUnavailable("connect timed out")), null, NOW, true).source())
                .as("trusted, nothing remembered: the ordinary 503").isEqualTo(AccessDecision.Source.ASKED);
    }

    // ---- fail closed

    @Test
    void nothingReadableIsUnavailable() {
        assertThat(policy.decide(null, Remembered.ALLOW.copy, NOW).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(policy.decide(new AccessOutcome.Answered(null), Remembered.ALLOW.copy, NOW).verdict())
                .isEqualTo(Verdict.UNAVAILABLE);
        assertThat(policy.decide(new AccessOutcome.Failed(null), Remembered.ALLOW.copy, NOW).verdict())
                .isEqualTo(Verdict.UNAVAILABLE);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void onlyAnAllowAnswerAllows(Kind kind) {
        boolean allowed = policy.decide(answered(kind), Remembered.ALLOW.copy, NOW).allowed();
        assertThat(allowed).isEqualTo(kind == Kind.ALLOW);
    }

    @Test
    void onlyAllowAndDenyCanBeRemembered() {
        assertThat(Stream.of(Kind.UNKNOWN_APP, Kind.UNUSABLE)).allSatisfy(kind ->
                assertThatThrownBy(() -> new AccessCopy(kind, 1, NOW))
                        .isInstanceOf(IllegalArgumentException.class));
        assertThatThrownBy(() -> new AccessCopy(null, 1, NOW))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void durationsMustMakeSense() {
        assertThatThrownBy(() -> new AccessPolicy(Duration.ofSeconds(-1), MEMORY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AccessPolicy(FRESH, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new AccessPolicy(Duration.ZERO, MEMORY).withoutAsking(Remembered.ALLOW.copy, NOW)).isEmpty();
    }

    // ---- the header and metric labels

    @ParameterizedTest(name = "{0} from {1} -> {2}")
    @CsvSource({
        "ALLOW, ASKED, asked, asked",
        "ALLOW, FRESH_COPY, fresh-copy, fresh_copy",
        "ALLOW, OUTAGE_COPY, outage-copy, outage_copy",
        "DENY, ASKED, refused, refused",
        "DENY, FRESH_COPY, refused, refused",
        "DENY, OUTAGE_COPY, refused, refused",
        "UNKNOWN_APP, ASKED, refused, refused",
        "UNAVAILABLE, ASKED, refused, refused",
    })
    void headerAndMetricLabel(Verdict verdict, Source source, String header, String metric) {
        AccessDecision decision = new AccessDecision(verdict, source, "test");
        assertThat(decision.header()).isEqualTo(header);
        assertThat(decision.metricSource()).isEqualTo(metric);
    }

    private static AccessOutcome answered(Kind kind) {
        return new AccessOutcome.Answered(new AccessAnswer(kind, 3, "test"));
    }
}
