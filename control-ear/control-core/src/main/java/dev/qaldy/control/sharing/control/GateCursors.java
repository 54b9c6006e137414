package dev.qaldy.control.sharing.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How far each gate of the cell has applied the sharing-changes feed, as it says when it pulls
 * ({@code gate=<its URL>&since=<cursor>}), in this process's memory only. Only the gates in
 * {@code qaldy.control.gate-urls} are kept (so the map is bounded); a restarted control plane
 * knows nothing until each gate pulls again (every {@code qaldy.gate.sync-interval}, 2 s).
 */
@ApplicationScoped
public class GateCursors {

    @Inject
    @ConfigProperty(name = "qaldy.control.gate-urls", defaultValue = "http://127.0.0.1:8083")
    List<String> gates;

    @Inject
    Logger log;

    private final Map<String, Long> cursors = new HashMap<>();
    private volatile boolean unknownLogged;

    /**
     * Gate {@code gate} has applied every change up to {@code cursor}. A gate not in
     * {@code qaldy.control.gate-urls} is ignored (logged once).
     */
    public void reported(String gate, long cursor) {
        String url = normalize(gate);
        if (!gates.stream().map(GateCursors::normalize).toList().contains(url)) {
            if (!unknownLogged) {
                unknownLogged = true;
                log.log(Level.WARNING, "a gate pulled sharing changes naming itself {0}, which is not in "
                        + "qaldy.control.gate-urls {1}: the API cannot wait for it (set qaldy.gate.url on that gate)",
                        new Object[] {gate, gates});
            }
            return;
        }
        synchronized (this) {
            cursors.merge(url, cursor, Math::max);
            notifyAll();
        }
    }

    /**
     * Waits until every gate in {@code waitFor} has applied change {@code sequence}, or until
     * {@code deadlineNanos} ({@link System#nanoTime()}).
     *
     * @return the gates that had not applied it by the deadline (empty when all had)
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public Set<String> awaitPast(Collection<String> waitFor, long sequence, long deadlineNanos) throws InterruptedException {
        synchronized (this) {
            while (true) {
                Set<String> behind = waitFor.stream().filter(g -> cursors.getOrDefault(normalize(g), Long.MIN_VALUE) < sequence)
                        .collect(Collectors.toSet());
                long left = deadlineNanos - System.nanoTime();
                if (behind.isEmpty() || left <= 0) {
                    return behind;
                }
                long ms = Math.max(1, left / 1_000_000);
                wait(ms);
            }
        }
    }

    /** A gate URL as compared: no trailing slash. */
    static String normalize(String url) {
        String u = url == null ? "" : url.trim();
        return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
    }
}
