package dev.qaldy.gate.platform;

import dev.qaldy.gate.shield.IpRanges;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Slow clients on Payara (issue 16). Grizzly's idle timer restarts with every byte, so a header line
 * every few seconds held a connection for ever (1,000 such stayed open); as Apache's mod_reqtimeout
 * ({@code header=20}), a request head must be complete within {@code qaldy.gate.head-deadline-ms} of
 * its first byte. One address may hold at most {@code qaldy.gate.max-connections-per-address}
 * connections (nginx's {@code limit_conn}); trusted proxies are not bounded. Events come from the
 * probes {@link PayaraHostGuard} installs; Open Liberty has no such hooks (README, "Where the two
 * servers differ").
 */
@ApplicationScoped
public class SlowClients {

    /** A connection whose head is parsed: no head deadline runs. */
    private static final long IN_REQUEST = Long.MIN_VALUE;
    private static final long SWEEP_MS = 500;
    /** A connection not bounded (a trusted proxy's, or none). */
    private static final InetAddress UNCOUNTED = uncounted();

    @Inject
    @ConfigProperty(name = "qaldy.gate.head-deadline-ms", defaultValue = "20000")
    long headDeadlineMillis;

    @Inject
    @ConfigProperty(name = "qaldy.gate.max-connections-per-address", defaultValue = "256")
    int maxPerAddress;

    @Inject
    @ConfigProperty(name = "qaldy.gate.trusted-proxies")
    Optional<String> trustedProxies;

    @Inject
    Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    /** Since when (System.nanoTime) each connection waits for a head, or {@link #IN_REQUEST}. */
    private final Map<Object, Long> heads = new ConcurrentHashMap<>();
    private final Map<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
    private final Map<Object, InetAddress> counted = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private IpRanges trusted = IpRanges.NONE;
    private volatile Method close;
    private volatile Method peerAddress;
    private ScheduledFuture<?> sweeper;

    @PostConstruct
    void start() {
        trusted = IpRanges.parse(trustedProxies.orElse(""));
    }

    @PreDestroy
    void stop() {
        if (sweeper != null) {
            sweeper.cancel(false);
        }
    }

    /** Called once the probes are installed. */
    synchronized void watch() {
        if (sweeper == null && headDeadlineMillis > 0) {
            sweeper = scheduler.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    InvocationHandler codecEvents() {
        return (proxy, method, args) -> switch (method.getName()) {
            case "onDataReceivedEvent" -> {
                heads.computeIfAbsent(args[0], c -> System.nanoTime()); // a head's first byte; no boxing for bytes after it
                yield null;
            }
            case "onHeaderParseEvent" -> {
                heads.put(args[0], IN_REQUEST);
                yield null;
            }
            default -> objectMethod(proxy, method, args, "qaldy head deadline");
        };
    }

    /** A completed request starts the wait for the next head. */
    InvocationHandler serverEvents() {
        return (proxy, method, args) -> switch (method.getName()) {
            case "onRequestCompleteEvent" -> {
                heads.remove(args[1]);
                yield null;
            }
            default -> objectMethod(proxy, method, args, "qaldy head deadline (requests)");
        };
    }

    /** Accepts reach the listening connection's probes, closes the accepted one's, so {@link PayaraHostGuard} adds it to both. */
    InvocationHandler connectionEvents() {
        return (proxy, method, args) -> switch (method.getName()) {
            case "onAcceptEvent" -> {
                accepted(args[1]);
                yield null;
            }
            case "onCloseEvent" -> {
                closed(args[0]);
                yield null;
            }
            default -> objectMethod(proxy, method, args, "qaldy connections per address");
        };
    }

    private void accepted(Object connection) throws ReflectiveOperationException {
        Method peerOf = peerAddress;
        if (peerOf == null) {
            peerOf = connection.getClass().getMethod("getPeerAddress");
            peerAddress = peerOf;
        }
        Object peer = peerOf.invoke(connection);
        boolean bounded = peer instanceof InetSocketAddress socket && socket.getAddress() != null && !trusted.contains(socket.getAddress());
        InetAddress address = bounded ? ((InetSocketAddress) peer).getAddress() : UNCOUNTED;
        if (counted.putIfAbsent(connection, address) != null || !bounded) {
            return;
        }
        int open = perAddress.computeIfAbsent(address, a -> new AtomicInteger()).incrementAndGet();
        if (open > maxPerAddress) {
            refused.incrementAndGet();
            close(connection);
        }
    }

    private void closed(Object connection) {
        heads.remove(connection);
        InetAddress address = counted.remove(connection);
        if (address != null && address != UNCOUNTED) {
            perAddress.computeIfPresent(address, (a, open) -> open.decrementAndGet() <= 0 ? null : open);
        }
    }

    void sweep() {
        long now = System.nanoTime();
        long deadline = TimeUnit.MILLISECONDS.toNanos(headDeadlineMillis);
        int closedNow = 0;
        for (Map.Entry<Object, Long> head : heads.entrySet()) {
            long since = head.getValue();
            if (since != IN_REQUEST && now - since > deadline && heads.remove(head.getKey(), since)) {
                try {
                    close(head.getKey());
                    closedNow++;
                } catch (ReflectiveOperationException | RuntimeException e) {
                    log.log(Level.FINE, "gate: cannot close a connection past its head deadline: {0}", e.toString());
                }
            }
        }
        long refusedNow = refused.getAndSet(0);
        if (closedNow > 0 || refusedNow > 0) {
            log.log(Level.INFO, "gate: closed {0} connection(s) whose request head took over {1} ms, and {2} over {3} per address",
                    new Object[] {closedNow, headDeadlineMillis, refusedNow, maxPerAddress});
        }
    }

    private void close(Object connection) throws ReflectiveOperationException {
        Method m = close;
        if (m == null) {
            m = connection.getClass().getMethod("closeSilently");
            close = m;
        }
        m.invoke(connection);
    }

    private static Object objectMethod(Object proxy, Method method, Object[] args, String name) {
        return switch (method.getName()) {
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> name;
            default -> null;
        };
    }

    private static InetAddress uncounted() {
        try {
            return InetAddress.getByAddress("uncounted", new byte[4]); // an instance of its own, compared by identity
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: four bytes
        }
    }
}
