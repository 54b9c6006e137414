package dev.qaldy.gate.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class BoundedInputStreamTest {

    @Test
    void passesABodyUpToTheLimit() throws IOException {
        BoundedInputStream in = new BoundedInputStream(new ByteArrayInputStream(new byte[100]), 100);
        assertThat(in.readAllBytes()).hasSize(100);
        assertThat(in.exceeded()).isFalse();
    }

    @Test
    void failsOnTheFirstByteOverTheLimit() {
        BoundedInputStream in = new BoundedInputStream(new ByteArrayInputStream(new byte[101]), 100);
        assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class);
        assertThat(in.exceeded()).isTrue();
        assertThat(in.clientFailed()).isFalse();
    }

    @Test
    void aNegativeLimitIsNoLimit() throws IOException {
        assertThat(new BoundedInputStream(new ByteArrayInputStream(new byte[5000]), -1).readAllBytes()).hasSize(5000);
    }

    @Test
    void remembersWhenTheClientFailed() {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        };
        BoundedInputStream in = new BoundedInputStream(broken, 100);
        assertThatThrownBy(in::read).isInstanceOf(IOException.class);
        assertThat(in.clientFailed()).isTrue();
        assertThat(in.exceeded()).isFalse();
    }
}
