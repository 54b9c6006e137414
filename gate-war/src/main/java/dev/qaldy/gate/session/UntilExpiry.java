package dev.qaldy.gate.session;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Bounded caches of facts about session tokens, each kept until its token's expiry and no longer
 * (on {@code clock}, so tests move time), at most {@code maxEntries} of them.
 */
final class UntilExpiry {

    private UntilExpiry() {
    }

    /**
     * @param expiresAt when a value's token expires: the value leaves the cache then
     * @return a cache keyed by token (or token id); maintenance runs on the caller's thread
     */
    static <V> Cache<String, V> cache(Clock clock, long maxEntries, Function<V, Instant> expiresAt) {
        return Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
                .executor(Runnable::run)
                .expireAfter(new Expiry<String, V>() {
                    @Override
                    public long expireAfterCreate(String key, V value, long nowNanos) {
                        return Math.max(0, TimeUnit.MILLISECONDS.toNanos(expiresAt.apply(value).toEpochMilli()) - nowNanos);
                    }

                    @Override
                    public long expireAfterUpdate(String key, V value, long nowNanos, long currentLeft) {
                        return expireAfterCreate(key, value, nowNanos);
                    }

                    @Override
                    public long expireAfterRead(String key, V value, long nowNanos, long currentLeft) {
                        return currentLeft;
                    }
                })
                .build();
    }
}
