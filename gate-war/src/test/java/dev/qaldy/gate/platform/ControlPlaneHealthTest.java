package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.health.UpstreamHealth.Failure;
import jakarta.ws.rs.ProcessingException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How a REST client call's failure tells the gate's view of the control plane, and that a failing view asks nothing. */
class ControlPlaneHealthTest {

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new ControlPlaneUnavailable("access call failed", new ConnectException("refused")), Failure.NO_ANSWER),
                Arguments.of(new ControlPlaneUnavailable("access call failed", new SocketTimeoutException("Read timed out")),
                        Failure.NO_ANSWER),
                Arguments.of(new TimeoutException("1000 ms"), Failure.NO_ANSWER),
                Arguments.of(new ProcessingException(new ConnectException("refused")), Failure.NO_ANSWER),
                Arguments.of(new ControlPlaneUnavailable("access answered HTTP 503"), Failure.ERROR_ANSWER),
                Arguments.of(new ControlPlaneUnavailable("access answered HTTP 404 without the API's problem JSON"), Failure.ERROR_ANSWER),
                Arguments.of(new BulkheadException("full"), null),
                Arguments.of(new IllegalStateException("the service token is not loaded"), null));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("failures")
    void aFailureIsNoAnswerAnErrorAnswerOrTheGatesOwn(Throwable failure, Failure expected) {
        assertThat(ControlPlaneHealth.failureOf(failure)).isEqualTo(expected);
    }

    @Test
    void aFailingViewAsksNothingAndAnAnswerEndsIt() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean probeAnswers = new java.util.concurrent.atomic.AtomicBoolean(false);
        UpstreamHealth view = new UpstreamHealth("control plane", Clock.systemUTC(), Duration.ofMillis(1), () -> {
            if (!probeAnswers.get()) {
                throw new java.io.IOException("no answer");
            }
        }, Logger.getAnonymousLogger());
        AtomicInteger asked = new AtomicInteger();
        assertThatThrownBy(() -> ControlPlaneHealth.call(view, () -> {
            asked.incrementAndGet();
            throw new ControlPlaneUnavailable("access call failed", new ConnectException("refused"));
        })).isInstanceOf(ControlPlaneUnavailable.class);
        view.probeIfDue(); // the probe the refused call set off gets no answer either
        assertThat(view.failing()).isTrue();
        assertThatThrownBy(() -> ControlPlaneHealth.call(view, asked::incrementAndGet))
                .isInstanceOf(ControlPlaneUnavailable.class).hasMessageContaining("not asked");
        assertThat(asked.get()).isEqualTo(1);
        probeAnswers.set(true);
        Thread.sleep(5); // past the probe interval (1 ms)
        view.probeIfDue();
        assertThat(ControlPlaneHealth.call(view, asked::incrementAndGet)).isEqualTo(2);
    }
}
