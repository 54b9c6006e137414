package dev.qaldy.gate.session;

import com.github.benmanes.caffeine.cache.Cache;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Objects;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Session tokens the gate has already verified (ES256 is most of the hot path's work otherwise),
 * keyed by the token's exact text and the public key that verified it. A hit is returned only
 * while the token is unexpired by the gate's clock, checked on every read; an entry leaves the
 * memory no later than the token's {@code exp}. A token verified under another key (the cell's
 * key was replaced) is verified again. Failures are never remembered: a bad token is checked in
 * full every time. Bounded: {@code qaldy.gate.session-cache-max-entries} (default 10,000).
 */
@ApplicationScoped
public class VerifiedSessions {

    /** One verified token: what it says, and the key that verified it. */
    record Verified(Session session, CellPublicKeys key) {
    }

    @Inject
    Clock clock;

    /** Most verified tokens kept (a token is up to 4,096 characters; about 0.5 KB each in practice). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.session-cache-max-entries", defaultValue = "10000")
    long maxEntries;

    private Cache<String, Verified> verified;

    /** For CDI. */
    public VerifiedSessions() {
    }

    /** Outside a container (tests). */
    public VerifiedSessions(Clock clock, long maxEntries) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxEntries = maxEntries;
        start();
    }

    @PostConstruct
    void start() {
        verified = UntilExpiry.cache(clock, maxEntries, v -> v.session().expiresAt());
    }

    /**
     * The session {@code token} carries, verified with {@code key} now or earlier (then still
     * unexpired now).
     *
     * @throws InvalidTokenException as {@link SessionTokens#verify} does
     */
    public Session verify(String token, CellPublicKeys key) throws InvalidTokenException {
        Verified hit = token == null ? null : verified.getIfPresent(token);
        if (hit != null && hit.key().equals(key) && clock.instant().isBefore(hit.session().expiresAt())) {
            return hit.session();
        }
        Session session = SessionTokens.verify(token, key, clock); // throws for anything but a valid token
        verified.put(token, new Verified(session, key));
        return session;
    }

    /** Tokens held, approximately. */
    public long size() {
        return verified.estimatedSize();
    }
}
