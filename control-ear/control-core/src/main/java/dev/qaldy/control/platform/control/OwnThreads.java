package dev.qaldy.control.platform.control;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where this process's own code is right now: the stacks of the threads that are inside Qaldy's
 * classes, for a log line that must say who holds something (issue 14: a write path's row held by a
 * transaction that did not end; the dump shows the request still inside it, or that none is, which
 * means the transaction was left behind by a thread that moved on).
 */
public final class OwnThreads {

    /** Classes whose frames mark a thread as being in Qaldy's code. */
    static final String OURS = "dev.qaldy.";

    private OwnThreads() {
    }

    /**
     * A readable dump of at most {@code maxThreads} threads with a frame in Qaldy's code (the caller's
     * own thread left out), each its name, state and its top {@code maxFrames} frames; "none" when no
     * such thread runs.
     */
    public static String dump(int maxThreads, int maxFrames) {
        Thread self = Thread.currentThread();
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        String dump = all.entrySet().stream()
                .filter(e -> e.getKey() != self && Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().startsWith(OURS)))
                .limit(maxThreads)
                .map(e -> "\"" + e.getKey().getName() + "\" " + e.getKey().getState() + Arrays.stream(e.getValue()).limit(maxFrames)
                        .map(f -> "\n    at " + f).collect(Collectors.joining()))
                .collect(Collectors.joining("\n"));
        return dump.isEmpty() ? "none" : dump;
    }
}
