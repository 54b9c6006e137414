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
 * Slow clients on Payara (issue 16): a deadline for each request head, and a bound on the
 * connections one address holds open. Grizzly's idle timer starts again with every byte, so a
 * client sending a header line every few seconds kept its connection for ever (1,000 such
 * connections stayed open for 60 s, none closed); as Apache's mod_reqtimeout ({@code header=20}),
 * a request head must be complete within {@code qaldy.gate.head-deadline-ms} of its first byte,
 * else the connection is closed. And one address may hold at most
 * {@code qaldy.gate.max-connections-per-address} connections (nginx's {@code limit_conn}); the
 * cell's trusted proxies ({@code qaldy.gate.trusted-proxies}) are not bounded, as every client
 * behind them shares their address. A slow request body is bounded by the gate's body pace
 * ({@code dev.qaldy.gate.proxy.BodyPace}), on every server.
 *
 * <p>Grizzly tells {@link PayaraHostGuard}'s probes, installed on each HTTP listener: bytes
 * received and the head parsed ({@code HttpProbe}), the request completed ({@code HttpServerProbe}),
 * a connection accepted and closed ({@code ConnectionProbe}). Connections are Grizzly's, handled by
 * reflection (nothing here is compiled against Payara). Open Liberty has no such hooks: there its
 * {@code httpOptions readTimeout} bounds each read only (see README, "Where the two servers differ").
 */
@ApplicationScoped
public class SlowClients {

    /** Marks a connection whose head is parsed: its request is being served, no head deadline runs. */
    private static final long IN_REQUEST = Long.MIN_VALUE;
    private static final long SWEEP_MS = 500;
    /** Stands for the address of a connection that is not bounded (a trusted proxy's, or none). */
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

    /** Each connection waiting for a request head: since when (System.nanoTime), or {@link #IN_REQUEST}. */
    private final Map<Object, Long> heads = new ConcurrentHashMap<>();
    /** Open connections per client address, and the address each counted connection was counted under. */
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

    /** Starts closing connections past their head deadline; called once the probes are installed. */
    synchronized void watch() {
        if (sweeper == null && headDeadlineMillis > 0) {
            sweeper = scheduler.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** The handler for Grizzly's {@code HttpProbe} (the HTTP codec filter's events). */
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

    /** The handler for Grizzly's {@code HttpServerProbe}: a completed request starts the wait for the next head. */
    InvocationHandler serverEvents() {
        return (proxy, method, args) -> switch (method.getName()) {
            case "onRequestCompleteEvent" -> {
                heads.remove(args[1]);
                yield null;
            }
            default -> objectMethod(proxy, method, args, "qaldy head deadline (requests)");
        };
    }

    /**
     * The handler for Grizzly's {@code ConnectionProbe}: connections per address, and forgetting closed
     * ones. Accepts are told to the listening connection's probes, closes to the accepted connection's
     * (which it copies from its transport when it is made), so {@link PayaraHostGuard} adds it to both.
     */
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

    /** Closes every connection whose head began more than the deadline ago; says how many, once a sweep. */
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
