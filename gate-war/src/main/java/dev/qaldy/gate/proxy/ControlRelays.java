package dev.qaldy.gate.proxy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * Bounds the gate's requests waiting on the control plane (the API, webhooks, app data):
 * {@code @Bulkhead(64)}, tuned by {@code dev.qaldy.gate.proxy.ControlRelays/relay/Bulkhead/value}.
 * Each holds a request thread as long as the control plane takes (up to 120 s), even after its
 * caller gave up; unbounded, a hung control plane with a few consoles open took every thread and
 * app visitors on copies queued behind them (issue 14). Beyond the bound: 503 at once.
 */
@ApplicationScoped
public class ControlRelays {

    static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    @Inject
    Logger log;

    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    @FunctionalInterface
    public interface Relay {
        void run() throws IOException;
    }

    /**
     * @throws org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException at once when the
     *         bound is reached; {@code relay} is not run and the caller answers 503
     */
    @Bulkhead(64)
    public void relay(Relay relay) throws IOException {
        relay.run();
    }

    /** Logged at most once a minute. */
    public void refused(String what) {
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (now - last >= LOG_EVERY_NANOS && lastLogged.compareAndSet(last, now)) {
            log.log(Level.INFO, "gate: as many requests as the bound already wait on the control plane; {0} was answered 503 "
                    + "at once (dev.qaldy.gate.proxy.ControlRelays/relay/Bulkhead/value; further refusals this minute are not logged)",
                    what);
        }
    }
}
