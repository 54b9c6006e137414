package dev.qaldy.contract.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class LimitedBytesTest {

    static final class Subscription implements Flow.Subscription {
        final AtomicBoolean cancelled = new AtomicBoolean();

        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
            cancelled.set(true);
        }
    }

    static ByteBuffer bytes(int n) {
        return ByteBuffer.wrap(new byte[n]);
    }

    @Test
    void a_body_up_to_the_limit_is_kept_whole() throws Exception {
        LimitedBytes body = new LimitedBytes(10);
        Subscription subscription = new Subscription();
        body.onSubscribe(subscription);
        body.onNext(List.of(bytes(4), bytes(6)));
        body.onComplete();
        assertThat(body.getBody().toCompletableFuture().get()).hasSize(10);
        assertThat(subscription.cancelled).isFalse();
    }

    @Test
    void past_the_limit_the_body_fails_with_an_io_error_and_the_exchange_is_cancelled() {
        LimitedBytes body = new LimitedBytes(10);
        Subscription subscription = new Subscription();
        body.onSubscribe(subscription);
        body.onNext(List.of(bytes(8)));
        body.onNext(List.of(bytes(3)));
        body.onComplete();
        assertThatThrownBy(() -> body.getBody().toCompletableFuture().get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IOException.class).hasMessageContaining("over 10 bytes");
        assertThat(subscription.cancelled).isTrue();
    }

    static final class Oversized extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Oversized(long limit) {
            super("bound " + limit);
        }
    }

    @Test
    void the_error_for_an_oversized_answer_is_the_callers() {
        LimitedBytes body = new LimitedBytes(5, Oversized::new);
        body.onSubscribe(new Subscription());
        body.onNext(List.of(bytes(6)));
        assertThatThrownBy(() -> body.getBody().toCompletableFuture().get()).hasCauseInstanceOf(Oversized.class)
                .hasMessageContaining("bound 5");
    }
}
