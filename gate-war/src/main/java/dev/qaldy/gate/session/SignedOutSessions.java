package dev.qaldy.gate.session;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Session tokens signed out, by {@code jti}, each kept until its {@code exp}. Tokens are verified
 * locally, so this list is what makes a sign-out count at the gate, also with the control plane
 * down; the control plane pushes every sign-out to every gate before it answers.
 *
 * <p>Bounded by {@code qaldy.gate.signed-out-max-entries} (about 100 bytes each). A full list cannot
 * fail closed (an unknown token id looks valid): an evicted token opens apps again until it
 * expires, so keep the bound above the sign-outs of one session lifetime ({@code qaldy.sessions.ttl}).
 *
 * <p>Until {@link #loaded()}, a session alone lets no one in (503), as the list may lack sign-outs
 * made before the start.
 */
@ApplicationScoped
public class SignedOutSessions {

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "qaldy.gate.signed-out-max-entries", defaultValue = "100000")
    long maxEntries;

    private Cache<String, Instant> signedOut;
    private volatile boolean loaded;

    public SignedOutSessions() {
    }

    /** Outside a container (tests). */
    public SignedOutSessions(Clock clock, long maxEntries) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxEntries = maxEntries;
        start();
    }

    @PostConstruct
    void start() {
        signedOut = UntilExpiry.cache(clock, maxEntries, expiresAt -> expiresAt);
    }

    /** A token already expired is not kept (it is refused anyway). */
    public void add(String tokenId, Instant expiresAt) {
        Objects.requireNonNull(tokenId, "tokenId");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (clock.instant().isBefore(expiresAt)) {
            signedOut.asMap().merge(tokenId, expiresAt, (old, now) -> old.isAfter(now) ? old : now);
        }
    }

    /** Until its token's expiry, unless evicted by the bound. */
    public boolean contains(String tokenId) {
        return tokenId != null && signedOut.getIfPresent(tokenId) != null;
    }

    public boolean loaded() {
        return loaded;
    }

    /** Once; never undone. */
    public void markLoaded() {
        loaded = true;
    }

    public long maxEntries() {
        return maxEntries;
    }

    /** Approximate. */
    public long size() {
        signedOut.cleanUp();
        return signedOut.estimatedSize();
    }
}
