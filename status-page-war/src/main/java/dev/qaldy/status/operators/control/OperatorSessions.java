package dev.qaldy.status.operators.control;

import dev.qaldy.status.platform.StatusSettings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Signed-in operators, in memory only: a random 256-bit token in an HttpOnly cookie names a
 * session, which holds its own CSRF token. At most {@value #MAX_SESSIONS} sessions (the least
 * recently used goes first); a session ends after {@code qaldy.status.operator-session-idle}
 * without a request and {@code qaldy.status.operator-session-max} after sign-in. A restart signs
 * everyone out.
 */
@ApplicationScoped
public class OperatorSessions {

    /** Most sessions kept at once. */
    public static final int MAX_SESSIONS = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One signed-in operator.
     *
     * @param token      the cookie's value (only its SHA-256 is the map key)
     * @param user       who signed in
     * @param csrfToken  the value every changing request must send in {@code X-CSRF-Token}
     * @param createdMs  epoch ms of the sign-in
     * @param lastSeenMs epoch ms of the latest request
     */
    public record OperatorSession(String token, String user, String csrfToken, long createdMs, long lastSeenMs) {

        /** True when {@code given} is this session's CSRF token (constant-time). */
        public boolean csrfMatches(String given) {
            return PasswordHash.sameText(csrfToken, given);
        }
    }

    @Inject
    StatusSettings settings;

    @Inject
    Clock clock;

    private Duration idle;
    private Duration max;
    private final Map<String, OperatorSession> sessions = new LinkedHashMap<>(16, 0.75f, true);

    public OperatorSessions() {
    }

    /** Sessions on {@code clock} with the given limits (tests). */
    public OperatorSessions(Clock clock, Duration idle, Duration max) {
        this.clock = clock;
        this.idle = idle;
        this.max = max;
    }

    @PostConstruct
    void configure() {
        idle = settings.sessionIdle();
        max = settings.sessionMax();
    }

    /** A new session for {@code user}. */
    public synchronized OperatorSession open(String user) {
        expire();
        while (sessions.size() >= MAX_SESSIONS) {
            Iterator<String> eldest = sessions.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
        long now = clock.millis();
        OperatorSession session = new OperatorSession(random(), user, random(), now, now);
        sessions.put(key(session.token()), session);
        return session;
    }

    /** The live session of {@code token}, marked as seen now; empty for unknown or expired tokens. */
    public synchronized Optional<OperatorSession> find(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        expire();
        String key = key(token);
        OperatorSession session = sessions.get(key);
        if (session == null) {
            return Optional.empty();
        }
        OperatorSession seen = new OperatorSession(session.token(), session.user(), session.csrfToken(),
                session.createdMs(), clock.millis());
        sessions.put(key, seen);
        return Optional.of(seen);
    }

    /** Ends the session of {@code token}, if any. */
    public synchronized void close(String token) {
        if (token != null) {
            sessions.remove(key(token));
        }
    }

    /** How many sessions are live. */
    public synchronized int size() {
        expire();
        return sessions.size();
    }

    private void expire() {
        long now = clock.millis();
        sessions.values().removeIf(s -> now - s.lastSeenMs() > idle.toMillis() || now - s.createdMs() > max.toMillis());
    }

    private static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String key(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
