package dev.qaldy.runtime.sandbox.control;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;

/**
 * Makes the only kind of Rhino context the runtime host uses: interpreted (so every instruction
 * can be counted), ES6, no Java classes visible (the class shutter refuses all of them), a bounded
 * interpreter stack, and a budget per call: CPU time of the calling thread and bytes it allocates.
 * Over budget, an {@link Error} is thrown: JavaScript can neither catch it nor run a
 * {@code finally} block after it.
 */
final class SandboxContextFactory extends ContextFactory {

    /** Instructions between two budget checks. */
    static final int CHECK_EVERY = 10_000;
    /** Interpreter frames a script may nest. */
    static final int MAX_STACK_DEPTH = 500;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long cpuNanos;
    private final long allocatedBytes;

    /**
     * @param cpuMillis      CPU time one call may use, in milliseconds (wall time where the JVM
     *                       cannot measure thread CPU time)
     * @param allocatedBytes bytes one call may allocate, in bytes (unchecked where the JVM cannot tell)
     */
    SandboxContextFactory(long cpuMillis, long allocatedBytes) {
        this.cpuNanos = cpuMillis * 1_000_000L;
        this.allocatedBytes = allocatedBytes;
    }

    @Override
    protected Context makeContext() {
        BudgetedContext cx = new BudgetedContext(this);
        cx.setOptimizationLevel(-1);
        cx.setLanguageVersion(Context.VERSION_ES6);
        cx.setClassShutter(className -> false);
        cx.setMaximumInterpreterStackDepth(MAX_STACK_DEPTH);
        cx.setInstructionObserverThreshold(CHECK_EVERY);
        cx.setGeneratingDebug(false);
        return cx;
    }

    @Override
    protected boolean hasFeature(Context cx, int featureIndex) {
        if (featureIndex == Context.FEATURE_ENHANCED_JAVA_ACCESS) {
            return false;
        }
        return super.hasFeature(cx, featureIndex);
    }

    @Override
    protected void observeInstructionCount(Context cx, int instructionCount) {
        ((BudgetedContext) cx).check();
    }

    /** Starts the budget of one call on the current thread. */
    static void startBudget(Context cx) {
        ((BudgetedContext) cx).start();
    }

    /** CPU time used since {@link #startBudget}, in milliseconds. */
    static long cpuMillisUsed(Context cx) {
        return (cpuNow() - ((BudgetedContext) cx).cpuStart) / 1_000_000L;
    }

    private static long cpuNow() {
        if (THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()) {
            return THREADS.getCurrentThreadCpuTime();
        }
        return System.nanoTime();
    }

    private static long allocatedNow() {
        if (THREADS instanceof com.sun.management.ThreadMXBean hotspot
                && hotspot.isThreadAllocatedMemorySupported() && hotspot.isThreadAllocatedMemoryEnabled()) {
            return hotspot.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    /** A context that carries the budget of the call it runs. */
    private final class BudgetedContext extends Context {

        private long cpuStart;
        private long allocatedStart;

        BudgetedContext(ContextFactory factory) {
            super(factory);
        }

        void start() {
            cpuStart = cpuNow();
            allocatedStart = allocatedNow();
        }

        void check() {
            if (cpuNow() - cpuStart > cpuNanos) {
                throw new BudgetExceeded(BudgetExceeded.Kind.CPU);
            }
            if (allocatedStart >= 0 && allocatedNow() - allocatedStart > allocatedBytes) {
                throw new BudgetExceeded(BudgetExceeded.Kind.MEMORY);
            }
        }
    }

    /** Thrown from inside the interpreter when a call is over its budget. */
    static final class BudgetExceeded extends Error {

        private static final long serialVersionUID = 1L;

        enum Kind { CPU, MEMORY }

        final Kind kind;

        BudgetExceeded(Kind kind) {
            super("over the " + kind.name().toLowerCase(java.util.Locale.ROOT) + " budget", null, false, false);
            this.kind = kind;
        }
    }
}
