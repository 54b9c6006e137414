package dev.qaldy.runtime.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CellCredentialsTest {

    @TempDir
    Path dir;

    @Test
    void the_token_matches_only_itself() {
        CellCredentials credentials = TestCredentials.write(dir, TestBundles.keys());
        assertThat(credentials.ready()).isTrue();
        assertThat(credentials.tokenMatches(TestCredentials.TOKEN)).isTrue();
        assertThat(credentials.tokenMatches(TestCredentials.TOKEN + "x")).isFalse();
        assertThat(credentials.tokenMatches(TestCredentials.TOKEN.substring(1))).isFalse();
        assertThat(credentials.tokenMatches("")).isFalse();
        assertThat(credentials.tokenMatches(null)).isFalse();
        assertThat(credentials.serviceToken()).isEqualTo(TestCredentials.TOKEN);
    }

    @Test
    void missing_files_mean_not_ready_until_they_appear() throws Exception {
        MovingClock clock = new MovingClock(TestBundles.NOW);
        CellCredentials credentials = new CellCredentials(dir.resolve("service-token").toString(),
                dir.resolve("cell.pub.pem").toString(), clock, Logger.getLogger("test"));
        assertThat(credentials.ready()).isFalse();
        assertThat(credentials.tokenMatches(TestCredentials.TOKEN)).isFalse();
        assertThatThrownBy(credentials::publicKey).isInstanceOf(CellCredentials.NotReadyException.class);

        TestCredentials.write(dir, TestBundles.keys());
        assertThat(credentials.ready()).as("not looked for again before the retry interval").isFalse();
        clock.now.set(TestBundles.NOW.plusSeconds(6));
        assertThat(credentials.ready()).isTrue();
        assertThat(credentials.tokenMatches(TestCredentials.TOKEN)).isTrue();
    }

    @Test
    void an_empty_token_file_is_not_a_token() throws Exception {
        TestCredentials.write(dir, TestBundles.keys());
        Files.writeString(dir.resolve("service-token"), "\n");
        CellCredentials credentials = new CellCredentials(dir.resolve("service-token").toString(),
                dir.resolve("cell.pub.pem").toString(), Clock.systemUTC(), Logger.getLogger("test"));
        assertThat(credentials.ready()).isFalse();
        assertThat(credentials.tokenMatches("")).isFalse();
    }

    static final class MovingClock extends Clock {

        final AtomicReference<Instant> now;

        MovingClock(Instant start) {
            now = new AtomicReference<>(start);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }
}
