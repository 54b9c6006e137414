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
 * Session tokens signed out (by their holder, through the API or on an app's origin), by token id
 * ({@code jti}), each kept until its token's expiry ({@code exp}) by the gate's clock, after which
 * the token is refused anyway. The gate verifies tokens locally, so this list is what makes a
 * sign-out count at the gate, also while the control plane is down; the control plane pushes every
 * sign-out to every gate before the API answers it.
 *
 * <p>Bounded: {@code qaldy.gate.signed-out-max-entries} (default 100,000; about 100 bytes each).
 * A token id the list has never held cannot be refused (it looks like any valid token), so a full
 * list cannot fail closed: when more sign-outs arrive, Caffeine evicts by its size policy, and an
 * evicted token opens apps again until its expiry. Keep the bound above the number of sign-outs
 * the cell sees in one session lifetime ({@code qaldy.sessions.ttl}, 12 h).
 *
 * <p>A starting gate loads the control plane's unexpired sign-outs ({@link SignedOutSessionsLoader}).
 * Until that has succeeded once ({@link #loaded()}), the list may lack sign-outs made before the
 * start, so the gate lets no one in on a session alone (503 "Temporarily unavailable", as a gate
 * that cannot ask the control plane); pushes received meanwhile are kept.
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

    /** For CDI. */
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

    /**
     * Lists {@code tokenId} as signed out until {@code expiresAt}; a token already expired is not
     * kept (it is refused anyway).
     */
    public void add(String tokenId, Instant expiresAt) {
        Objects.requireNonNull(tokenId, "tokenId");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (clock.instant().isBefore(expiresAt)) {
            signedOut.asMap().merge(tokenId, expiresAt, (old, now) -> old.isAfter(now) ? old : now);
        }
    }

    /** True while {@code tokenId} is listed as signed out (until its token's expiry, unless evicted by the bound). */
    public boolean contains(String tokenId) {
        return tokenId != null && signedOut.getIfPresent(tokenId) != null;
    }

    /**
     * True once the control plane's sign-outs made before this gate started were loaded
     * ({@link #markLoaded()}); until then the list may lack some, and a session alone lets no one in.
     */
    public boolean loaded() {
        return loaded;
    }

    /** Records that the sign-outs made before this gate started are in the list (once; never undone). */
    public void markLoaded() {
        loaded = true;
    }

    /** The bound on token ids held ({@code qaldy.gate.signed-out-max-entries}). */
    public long maxEntries() {
        return maxEntries;
    }

    /** Token ids held, approximately. */
    public long size() {
        signedOut.cleanUp();
        return signedOut.estimatedSize();
    }
}
