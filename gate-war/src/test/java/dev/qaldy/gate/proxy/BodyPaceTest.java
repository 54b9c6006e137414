package dev.qaldy.gate.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BodyPaceTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aBodyMayTakeTheGraceAndOneSecondPerRateOfBytes() {
        BodyPace pace = new BodyPace(20_000, 500);
        assertThat(pace.late(0, 20_000 * MS)).isFalse();
        assertThat(pace.late(0, 20_001 * MS)).isTrue();
        assertThat(pace.late(500, 21_000 * MS)).isFalse();
        assertThat(pace.late(500, 21_001 * MS)).isTrue();
        assertThat(pace.late(10_000_000, 60_000 * MS)).isFalse();
    }

    @Test
    void noRateIsNoBound() {
        assertThat(BodyPace.NONE.late(0, Long.MAX_VALUE)).isFalse();
    }

    @Test
    void aNegativeSettingIsRefusedWithBoth() {
        assertThatThrownBy(() -> new BodyPace(-1, 500)).hasMessageContaining("-1 ms, 500 B/s");
    }

    @Test
    void aBodyBehindItsPaceEndsTheTransferAndSaysSo() throws IOException {
        // A client that sent 10 bytes at once, then nothing for a second: 500 ms of grace and 10 ms for its bytes are over.
        InputStream slow = new InputStream() {
            private int sent;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (sent == 10) {
                    try {
                        Thread.sleep(1_000); // the client's next byte comes a second later: the stimulus, not a wait
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                b[off] = 'x';
                sent++;
                return 1;
            }
        };
        BoundedInputStream in = new BoundedInputStream(slow, -1, new BodyPace(500, 1_000));
        byte[] buffer = new byte[1];
        for (int i = 0; i < 10; i++) {
            assertThat(in.read(buffer, 0, 1)).isEqualTo(1);
        }
        assertThatThrownBy(() -> in.read(buffer, 0, 1)).isInstanceOf(IOException.class).hasMessageContaining("slower than");
        assertThat(in.tooSlow()).isTrue();
        assertThat(in.exceeded()).isFalse();
        assertThat(in.clientFailed()).isFalse();
    }

    @Test
    void aBodyWithinItsPaceIsPassedWhole() throws IOException {
        BoundedInputStream in = new BoundedInputStream(new ByteArrayInputStream(new byte[100_000]), -1, new BodyPace(20_000, 500));
        assertThat(in.readAllBytes()).hasSize(100_000);
        assertThat(in.tooSlow()).isFalse();
    }
}
