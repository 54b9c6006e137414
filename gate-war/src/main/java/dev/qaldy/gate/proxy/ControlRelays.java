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
 * The bound on the gate's requests that wait on the control plane at once: the API on the public
 * origin, webhooks, an app's data ({@code @Bulkhead(64)}, tuned by the
 * {@code dev.qaldy.gate.proxy.ControlRelays/relay/Bulkhead/value} key). Each such request holds a
 * request thread of the server for as long as the control plane takes (the API up to
 * {@code qaldy.gate.upstream-timeout-ms}, 120 s), and a caller that gives up does not free it (a
 * console gives up after 10 s and asks again; the gate's call goes on). Without a bound, a hung
 * control plane with a few open consoles took every request thread of the server, and each app's
 * visitors, served from the copy without asking anyone, queued behind them (issue 14). Beyond the
 * bound the caller is answered 503 at once, as if the control plane could not be reached; app
 * traffic and the gate's own checks (bounded on their own) never wait here.
 */
@ApplicationScoped
public class ControlRelays {

    /** At most one log line a minute says that requests were refused here. */
    static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    @Inject
    Logger log;

    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    /** One request's relay to the control plane, its answer included. */
    @FunctionalInterface
    public interface Relay {
        void run() throws IOException;
    }

    /**
     * Runs {@code relay} while fewer than the bound run.
     *
     * @throws org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException at once when the
     *         bound is reached; {@code relay} is not run and the caller answers 503
     * @throws IOException as {@code relay} throws it
     */
    @Bulkhead(64)
    public void relay(Relay relay) throws IOException {
        relay.run();
    }

    /** Says, at most once a minute, that {@code what} was answered 503 because the bound was reached. */
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
