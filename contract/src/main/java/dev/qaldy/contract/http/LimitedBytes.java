package dev.qaldy.contract.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.LongFunction;

/**
 * Collects an answer body in memory and fails it past {@code limit} bytes (with {@code overLimit}'s
 * error, by default an {@link IOException}), cancelling the exchange, so a peer cannot make an edge
 * caller hold more.
 */
public final class LimitedBytes implements HttpResponse.BodySubscriber<byte[]> {

    private final long limit;
    private final LongFunction<? extends Throwable> overLimit;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    public LimitedBytes(long limit) {
        this(limit, max -> new IOException("answer over " + max + " bytes"));
    }

    public LimitedBytes(long limit, LongFunction<? extends Throwable> overLimit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative");
        }
        this.limit = limit;
        this.overLimit = Objects.requireNonNull(overLimit, "overLimit");
    }

    public static HttpResponse.BodyHandler<byte[]> handler(long limit, LongFunction<? extends Throwable> overLimit) {
        return info -> new LimitedBytes(limit, overLimit);
    }

    public static HttpResponse.BodyHandler<byte[]> handler(long limit) {
        return info -> new LimitedBytes(limit);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : items) {
            if (out.size() + (long) buffer.remaining() > limit) {
                result.completeExceptionally(overLimit.apply(limit));
                subscription.cancel();
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            out.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(out.toByteArray());
    }
}
