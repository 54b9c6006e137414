package dev.qaldy.runtime.bundles.control;

import dev.qaldy.runtime.platform.ServingException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Concurrent calls for one key share one run of the work: one question to the control plane, one
 * bundle fetch. The others wait and get its result, or its failure.
 */
final class SingleFlight<K, V> {

    private final ConcurrentHashMap<K, CompletableFuture<V>> running = new ConcurrentHashMap<>();

    V run(K key, Supplier<V> work) {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> other = running.putIfAbsent(key, mine);
        if (other != null) {
            return await(other);
        }
        try {
            V value = work.get();
            mine.complete(value);
            return value;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            running.remove(key, mine);
        }
    }

    private static <V> V await(CompletableFuture<V> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ControlPlaneUnavailableException("interrupted while waiting for another request's answer", e);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ServingException serving) {
                throw serving;
            }
            throw new IllegalStateException("the shared call failed", cause);
        }
    }
}
