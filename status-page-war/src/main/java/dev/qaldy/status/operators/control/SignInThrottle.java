package dev.qaldy.status.operators.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Slows password guessing: after {@value #MAX_FAILURES} failed sign-ins from one client address
 * within {@link #WINDOW}, that address is refused for {@link #LOCK}. Remembers at most
 * {@value #MAX_CLIENTS} addresses.
 */
@ApplicationScoped
public class SignInThrottle {

    /** Failures allowed within the window. */
    static final int MAX_FAILURES = 5;
    /** The window failures are counted in. */
    static final Duration WINDOW = Duration.ofMinutes(5);
    /** How long a client is refused after too many failures. */
    static final Duration LOCK = Duration.ofMinutes(1);
    /** Most client addresses remembered. */
    static final int MAX_CLIENTS = 1024;

    private record Failures(int count, long firstMs, long lockedUntilMs) {
    }

    @Inject
    Clock clock;

    private final Map<String, Failures> clients = new LinkedHashMap<>(16, 0.75f, true);

    public SignInThrottle() {
    }

    /** A throttle on {@code clock} (tests). */
    public SignInThrottle(Clock clock) {
        this.clock = clock;
    }

    /** Seconds {@code client} must still wait before trying again; 0 when it may try now. */
    public synchronized long secondsLocked(String client) {
        Failures failures = clients.get(client);
        long now = clock.millis();
        if (failures == null || failures.lockedUntilMs() <= now) {
            return 0;
        }
        return Math.max(1, (failures.lockedUntilMs() - now + 999) / 1000);
    }

    /** Counts a failed sign-in of {@code client}. */
    public synchronized void failed(String client) {
        long now = clock.millis();
        Failures failures = clients.get(client);
        if (failures == null || now - failures.firstMs() > WINDOW.toMillis()) {
            failures = new Failures(0, now, 0);
        }
        int count = failures.count() + 1;
        long lockedUntil = count >= MAX_FAILURES ? now + LOCK.toMillis() : failures.lockedUntilMs();
        clients.put(client, count >= MAX_FAILURES ? new Failures(0, now, lockedUntil) : new Failures(count, failures.firstMs(), lockedUntil));
        while (clients.size() > MAX_CLIENTS) {
            Iterator<String> eldest = clients.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
    }

    /** Forgets the failures of {@code client} after a successful sign-in. */
    public synchronized void succeeded(String client) {
        clients.remove(client);
    }
}
