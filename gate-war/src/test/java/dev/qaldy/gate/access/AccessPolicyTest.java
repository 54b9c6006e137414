package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.access.AccessAnswer.Kind;
import dev.qaldy.gate.access.AccessDecision.Verdict;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.ws.rs.ProcessingException;
import java.net.ConnectException;
import java.util.stream.Stream;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceDefinitionException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The policy per answer and per failure class: only an explicit allow answer allows. */
class AccessPolicyTest {

    private final AccessPolicy policy = new AccessPolicy();

    static Stream<Arguments> answers() {
        return Stream.of(
                Arguments.of(Kind.ALLOW, Verdict.ALLOW),
                Arguments.of(Kind.DENY, Verdict.DENY),
                Arguments.of(Kind.UNKNOWN_APP, Verdict.UNKNOWN_APP),
                Arguments.of(Kind.UNUSABLE, Verdict.UNAVAILABLE));
    }

    @ParameterizedTest(name = "answer {0} -> {1}")
    @MethodSource("answers")
    void answers(Kind kind, Verdict verdict) {
        AccessDecision decision = policy.decide(new AccessOutcome.Answered(new AccessAnswer(kind, 3, "test")));
        assertThat(decision.verdict()).isEqualTo(verdict);
    }

    @Test
    void everyAnswerKindIsCovered() {
        assertThat(answers().count()).isEqualTo(Kind.values().length);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                // control-plane failures: connect error, timeout, 5xx, and the breaker and bulkhead they cause
                Arguments.of(new ControlPlaneUnavailable("connect refused", new ConnectException("refused")), FailureClass.CONTROL_PLANE),
                Arguments.of(new ControlPlaneUnavailable("access answered HTTP 503"), FailureClass.CONTROL_PLANE),
                Arguments.of(new TimeoutException("1000 ms"), FailureClass.CONTROL_PLANE),
                Arguments.of(new CircuitBreakerOpenException("open"), FailureClass.CONTROL_PLANE),
                Arguments.of(new BulkheadException("full"), FailureClass.CONTROL_PLANE),
                Arguments.of(new ProcessingException(new ConnectException("refused")), FailureClass.CONTROL_PLANE),
                Arguments.of(new IllegalStateException("wrapped", new ControlPlaneUnavailable("x")), FailureClass.CONTROL_PLANE),
                // everything else is the gate's own error
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

    @ParameterizedTest(name = "{0} -> 503")
    @MethodSource("failures")
    void everyFailureIsUnavailableNeverAllowNorDeny(Throwable failure) {
        AccessDecision decision = policy.decide(new AccessOutcome.Failed(failure));
        assertThat(decision.verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(decision.allowed()).isFalse();
    }

    @Test
    void nothingReadableIsUnavailable() {
        assertThat(policy.decide(null).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(policy.decide(new AccessOutcome.Answered(null)).verdict()).isEqualTo(Verdict.UNAVAILABLE);
        assertThat(policy.decide(new AccessOutcome.Failed(null)).verdict()).isEqualTo(Verdict.UNAVAILABLE);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void onlyAnAllowAnswerAllows(Kind kind) {
        boolean allowed = policy.decide(new AccessOutcome.Answered(new AccessAnswer(kind, 1, "t"))).allowed();
        assertThat(allowed).isEqualTo(kind == Kind.ALLOW);
    }
}
