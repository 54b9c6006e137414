package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.access.MovableClock;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The loading rule: a session alone lets no one in until one load of the sign-outs succeeded; a failure is retried. */
class SignedOutSessionsLoaderTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final MovableClock clock = new MovableClock(T0);
    private final SignedOutSessions list = new SignedOutSessions(clock, 100);
    private final SignedOutSessionsLoader loader = new SignedOutSessionsLoader();

    SignedOutSessionsLoaderTest() {
        loader.list = list;
        loader.log = Logger.getLogger(SignedOutSessionsLoaderTest.class.getName());
        loader.retry = Duration.ofSeconds(3);
    }

    @Test
    void aStartedGateHasNotLoadedUntilAnAttemptSucceeds() {
        assertThat(list.loaded()).isFalse();

        assertThat(loader.load(after -> { throw new ConnectException("the API is down"); })).isFalse();
        assertThat(loader.load(after -> { throw new IOException("signed-out sessions answered HTTP 503"); })).isFalse();
        assertThat(list.loaded()).as("failures never count as loaded").isFalse();

        assertThat(loader.load(after -> SignOutMarksTest.page(3, false, "before-restart", T0.plus(Duration.ofHours(12))))).isTrue();
        assertThat(list.loaded()).isTrue();
        assertThat(list.contains("before-restart")).isTrue();
    }

    @Test
    void aPushBeforeTheLoadIsKeptAndAnEmptyListStillCountsAsLoaded() {
        list.add("pushed", T0.plusSeconds(600));

        assertThat(loader.load(after -> SignOutMarksTest.page(0, false))).isTrue();

        assertThat(list.loaded()).isTrue();
        assertThat(list.contains("pushed")).isTrue();
    }

    @Test
    void aSignOutWhosePushNeverArrivedIsReadAgainOnceLoaded() {
        assertThat(loader.refresh(after -> SignOutMarksTest.page(1, false, "missed", T0.plusSeconds(600)))).as("not loaded yet: no refresh")
                .isZero();
        assertThat(loader.load(after -> SignOutMarksTest.page(1, false, "known", T0.plusSeconds(600)))).isTrue();
        assertThat(list.contains("missed")).isFalse();

        assertThat(loader.refresh(after -> SignOutMarksTest.page(2, false, "known", T0.plusSeconds(600), "missed", T0.plusSeconds(900))))
                .isEqualTo(1);
        assertThat(list.contains("missed")).as("the push that was lost in a partition is made up").isTrue();
        assertThat(loader.refresh(after -> { throw new IOException("timed out"); })).as("a failed read changes nothing").isZero();
        assertThat(list.contains("known")).isTrue();
    }

    @Test
    void aHalfReadListIsNotLoaded() {
        assertThat(loader.load(after -> {
            if (after == 0) {
                return SignOutMarksTest.page(2, true, "first", T0.plusSeconds(600));
            }
            throw new IOException("timed out");
        })).isFalse();
        assertThat(list.loaded()).isFalse();
        assertThat(list.contains("first")).isTrue();
    }
}
