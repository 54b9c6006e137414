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
 * Session tokens already verified (ES256 is otherwise most of the hot path's work), keyed by the
 * token's text and the verifying key. A hit counts only while unexpired by the gate's clock; an
 * entry leaves by the token's {@code exp}; failures are never remembered.
 */
@ApplicationScoped
public class VerifiedSessions {

    record Verified(Session session, CellPublicKeys key) {
    }

    @Inject
    Clock clock;

    /** About 0.5 KB each in practice. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.session-cache-max-entries", defaultValue = "10000")
    long maxEntries;

    private Cache<String, Verified> verified;

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

    /** @throws InvalidTokenException as {@link SessionTokens#verify} does */
    public Session verify(String token, CellPublicKeys key) throws InvalidTokenException {
        Verified hit = token == null ? null : verified.getIfPresent(token);
        if (hit != null && hit.key().equals(key) && clock.instant().isBefore(hit.session().expiresAt())) {
            return hit.session();
        }
        Session session = SessionTokens.verify(token, key, clock); // throws for anything but a valid token
        verified.put(token, new Verified(session, key));
        return session;
    }

    public long size() {
        return verified.estimatedSize();
    }
}
