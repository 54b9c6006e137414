package dev.qaldy.runtime.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring.Verdict;
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
    void each_endpoint_takes_the_credential_of_its_own_direction_only() {
        CellCredentials credentials = TestCredentials.write(dir, TestBundles.keys());
        assertThat(credentials.ready()).isTrue();
        assertThat(credentials.check(TestCredentials.FROM_GATE, ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.ACCEPTED);
        assertThat(credentials.check(TestCredentials.FROM_CONTROL, ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.WRONG_DIRECTION);
        assertThat(credentials.check(TestCredentials.FROM_CONTROL, ServiceDirection.CONTROL_TO_RUNTIME)).isEqualTo(Verdict.ACCEPTED);
        assertThat(credentials.check(TestCredentials.TO_CONTROL, ServiceDirection.CONTROL_TO_RUNTIME))
                .as("its own credential for the control plane opens none of its own endpoints").isEqualTo(Verdict.WRONG_DIRECTION);
        assertThat(credentials.check(TestCredentials.FROM_GATE + "x", ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
        assertThat(credentials.check(TestCredentials.FROM_GATE.substring(1), ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
        assertThat(credentials.check("", ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
        assertThat(credentials.check(null, ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
        assertThat(credentials.toControl()).isEqualTo(TestCredentials.TO_CONTROL);
    }

    @Test
    void the_host_never_reads_the_gates_credential_for_the_control_plane() throws Exception {
        String gateToControl = TestCredentials.secret(ServiceDirection.GATE_TO_CONTROL);
        Files.writeString(dir.resolve(ServiceDirection.GATE_TO_CONTROL.fileName()), gateToControl + "\n");
        CellCredentials credentials = TestCredentials.write(dir, TestBundles.keys());
        assertThat(credentials.check(gateToControl, ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
        assertThat(credentials.check(gateToControl, ServiceDirection.CONTROL_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void missing_files_mean_not_ready_until_they_appear() throws Exception {
        MovingClock clock = new MovingClock(TestBundles.NOW);
        CellCredentials credentials = new CellCredentials(dir.toString(), dir.resolve("cell.pub.pem").toString(), clock,
                Logger.getLogger("test"));
        assertThat(credentials.ready()).isFalse();
        assertThat(credentials.check(TestCredentials.FROM_GATE, ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
        assertThatThrownBy(credentials::publicKeys).isInstanceOf(CellCredentials.NotReadyException.class);
        assertThatThrownBy(credentials::toControl).isInstanceOf(CellCredentials.NotReadyException.class);

        TestCredentials.write(dir, TestBundles.keys());
        assertThat(credentials.ready()).as("not looked for again before the retry interval").isFalse();
        clock.now.set(TestBundles.NOW.plusSeconds(6));
        assertThat(credentials.ready()).isTrue();
        assertThat(credentials.check(TestCredentials.FROM_GATE, ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.ACCEPTED);
    }

    @Test
    void an_empty_credential_file_is_not_a_credential() throws Exception {
        TestCredentials.write(dir, TestBundles.keys());
        Files.writeString(dir.resolve(ServiceDirection.GATE_TO_RUNTIME.fileName()), "\n");
        CellCredentials credentials = new CellCredentials(dir.toString(), dir.resolve("cell.pub.pem").toString(), Clock.systemUTC(),
                Logger.getLogger("test"));
        assertThat(credentials.ready()).isFalse();
        assertThat(credentials.check("", ServiceDirection.GATE_TO_RUNTIME)).isEqualTo(Verdict.UNKNOWN);
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
