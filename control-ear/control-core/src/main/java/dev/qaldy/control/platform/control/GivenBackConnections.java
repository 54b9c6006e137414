package dev.qaldy.control.platform.control;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Makes EclipseLink give every pooled connection back to the server's pool, even one whose database
 * died under it (issue 14). EclipseLink closes a connection handle only while {@code isClosed()} is
 * false ({@code DatasourceAccessor.closeConnection}); H2's client says a connection is closed as soon
 * as its database is gone, so after a database kill or restart the handles in use were dropped
 * without {@code close()}, and Payara kept them out of its pool until its leak reclaim 60 s later
 * (the CI log: two "potential connection leak" reports 60 s after a kill; in a loaded soak such a
 * connection held the billing row for 60 s). The handle given to EclipseLink answers
 * {@code isClosed()} with whether it was closed through it; everything else goes to the pool's handle,
 * which, once closed, the pool destroys or reuses as its validation decides.
 *
 * <p>Each handle not yet closed is listed ({@link #heldLongerThan}) with the thread that took it and
 * where in Qaldy's code, so a row lock that stays held names the connection holding it (issue 14,
 * finding 1). At most {@value #MAX_LISTED} are listed; handles older than {@link #FORGET_AFTER} are
 * forgotten (the pool has reclaimed them as leaks by then).
 */
public final class GivenBackConnections {

    /** Most open handles listed at once. */
    static final int MAX_LISTED = 10_000;
    /** An open handle this old is no longer listed. */
    static final Duration FORGET_AFTER = Duration.ofMinutes(10);
    /** Frames of Qaldy's code kept per handle, innermost first. */
    static final int FRAMES = 6;

    private static final Map<Handle, Boolean> OPEN = new ConcurrentHashMap<>();

    private GivenBackConnections() {
    }

    /**
     * The handles taken more than {@code age} ago and not closed yet, oldest first, each one line:
     * {@code "<age> s by <thread> at <frames in dev.qaldy, innermost first>"}.
     */
    public static List<String> heldLongerThan(Duration age) {
        long now = System.nanoTime();
        forgetOld(now);
        return OPEN.keySet().stream().filter(h -> now - h.takenAt > age.toNanos())
                .sorted((a, b) -> Long.compare(a.takenAt, b.takenAt))
                .map(h -> String.format("%.1f s by %s at %s", (now - h.takenAt) / 1e9, h.thread, h.where))
                .collect(Collectors.toList());
    }

    /** {@code pooled} as EclipseLink should hold it. */
    public static Connection wrap(Connection pooled) {
        if (pooled == null || Proxy.isProxyClass(pooled.getClass()) && Proxy.getInvocationHandler(pooled) instanceof Handle) {
            return pooled;
        }
        Handle handle = new Handle(pooled);
        if (OPEN.size() >= MAX_LISTED) {
            forgetOld(System.nanoTime());
        }
        if (OPEN.size() < MAX_LISTED) {
            OPEN.put(handle, Boolean.TRUE);
        }
        return (Connection) Proxy.newProxyInstance(GivenBackConnections.class.getClassLoader(), new Class<?>[] {Connection.class},
                handle);
    }

    private static void forgetOld(long now) {
        OPEN.keySet().removeIf(h -> now - h.takenAt > FORGET_AFTER.toNanos());
    }

    /** Up to {@link #FRAMES} frames of Qaldy's code on this thread's stack, innermost first. */
    private static String ourFrames() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> f.getClassName().startsWith("dev.qaldy.") && !f.getClassName().equals(GivenBackConnections.class.getName())
                        && !f.getClassName().startsWith(GivenBackConnections.class.getName() + "$")
                        && !f.getClassName().contains("$Proxy$_$$_Weld"))
                .limit(FRAMES)
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName() + ":" + f.getLineNumber())
                .collect(Collectors.joining(" < ")));
    }

    /** Forwards to the pool's handle; {@code isClosed()} is whether {@code close()} was called here. */
    private static final class Handle implements InvocationHandler {

        private final Connection pooled;
        private final AtomicBoolean closed = new AtomicBoolean();
        private final long takenAt = System.nanoTime();
        private final String thread = Thread.currentThread().getName();
        private final String where = ourFrames();

        Handle(Connection pooled) {
            this.pooled = pooled;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "isClosed":
                    if (method.getParameterCount() == 0) {
                        return closed.get();
                    }
                    break;
                case "close":
                    if (method.getParameterCount() == 0) {
                        closed.set(true);
                        OPEN.remove(this);
                    }
                    break;
                case "equals":
                    return args != null && args.length == 1 && args[0] == proxy;
                case "hashCode":
                    return System.identityHashCode(proxy);
                default:
                    break;
            }
            try {
                return method.invoke(pooled, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
