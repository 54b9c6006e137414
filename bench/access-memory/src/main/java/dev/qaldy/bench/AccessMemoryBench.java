package dev.qaldy.bench;

import dev.qaldy.gate.access.AccessAnswer;
import dev.qaldy.gate.access.AccessCopy;
import dev.qaldy.gate.access.AccessMemory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Heap per remembered answer and ns per lookup of the gate's real {@link AccessMemory}.
 * A plain harness, not JMH: heap is measured with System.gc() and MemoryMXBean (SerialGC, one
 * JVM per size); lookups in a timed loop after warm-up, median of batches.
 *
 * <p>Usage: {@code AccessMemoryBench ENTRIES [APPS] [BATCHES] [MAX_ENTRIES]}. Prints one line:
 * {@code entries=N apps=A bytesPerEntry=B lookupNsMedian=… lookupNsMin=… lookupNsMax=… cpuNsMedian=… cpuNsMin=… cpuNsMax=…}:
 * wall-clock ns per lookup, and the measuring thread's CPU time per lookup (what a lookup costs the
 * gate's request thread; on a machine shared with other work the wall clock also counts the time
 * the thread waited for a core, which the CPU time does not).
 *
 * <p>Set up as the gate runs it: the memory is bounded by {@code MAX_ENTRIES} (default 1,000,000,
 * the gate's {@code qaldy.gate.access-memory-max-entries}), 30 minutes of memory; every app's
 * sharing version is known first (by a push, which leaves no copy behind); one answer in ten is a
 * deny (both are kept); the answers were asked over the last minute, so their expiry is spread as
 * in the gate. The app name of each entry and of each question is a fresh String instance (as the
 * gate parses it from the Host header), so its bytes count per entry, as in the gate.
 *
 * <p>Lookups: 2^20 questions drawn at random over the whole set of entries (not a hot subset:
 * at 1M entries most of them miss the CPU caches, as in the gate), each with its own app String,
 * walked in order, 2,000,000 per batch; 5 warm-up batches, then {@code BATCHES} timed ones.
 */
public final class AccessMemoryBench {

    private static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int entries = Integer.parseInt(args[0]);
        int apps = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int batches = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        long maxEntries = args.length > 3 ? Long.parseLong(args[3]) : 1_000_000;
        if (entries > maxEntries) {
            throw new IllegalArgumentException(entries + " entries do not fit a memory of at most " + maxEntries);
        }
        String[] appNames = new String[apps];
        for (int i = 0; i < apps; i++) {
            appNames[i] = "app-" + Integer.toString(i * 7919 + 100_000, 36); // like real names, ~9 chars
        }
        Clock clock = Clock.systemUTC();
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();

        // The newest-version map is per app (bounded by the cell's apps): fill it first, outside the measurement.
        AccessMemory memory = new AccessMemory(clock, Duration.ofMinutes(30), maxEntries);
        for (int a = 0; a < apps; a++) {
            memory.sharingChanged(appNames[a], 42);
        }
        memory.cleanUp();
        long before = usedHeap(mx);
        long now = clock.millis();
        for (int i = 0; i < entries; i++) {
            String app = new String(appNames[i % apps].toCharArray()); // a fresh instance, as from a request
            AccessAnswer.Kind kind = i % 10 == 9 ? AccessAnswer.Kind.DENY : AccessAnswer.Kind.ALLOW;
            if (!memory.learn(app, i, new AccessAnswer(kind, 42, "bench", 7), now - i % 60_000)) {
                throw new AssertionError("not remembered: " + i);
            }
        }
        memory.cleanUp();
        long after = usedHeap(mx);
        long size = memory.size();
        if (size != entries) {
            throw new AssertionError("holds " + size + " of " + entries);
        }
        double perEntry = (after - before) / (double) size;

        // Questions at random over the whole set; app strings equal to but not the stored instances.
        int keys = 1 << 20;
        String[] qApp = new String[keys];
        long[] qPerson = new long[keys];
        SplittableRandom random = new SplittableRandom(7);
        for (int k = 0; k < keys; k++) {
            int i = random.nextInt(entries);
            qApp[k] = new String(appNames[i % apps].toCharArray());
            qPerson[k] = i;
        }
        int perBatch = 2_000_000;
        long hits = 0;
        for (int w = 0; w < 5; w++) { // warm-up (C2)
            hits += lookups(memory, qApp, qPerson, perBatch);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] ns = new double[batches];
        double[] cpu = new double[batches];
        for (int b = 0; b < batches; b++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            hits += lookups(memory, qApp, qPerson, perBatch);
            ns[b] = (System.nanoTime() - t0) / (double) perBatch;
            cpu[b] = (threads.getCurrentThreadCpuTime() - c0) / (double) perBatch;
        }
        Arrays.sort(ns);
        Arrays.sort(cpu);
        sink = memory;
        if (hits != (long) perBatch * (5 + batches)) {
            throw new AssertionError("missed lookups: " + ((long) perBatch * (5 + batches) - hits));
        }
        System.out.printf("entries=%d apps=%d heapDeltaBytes=%d bytesPerEntry=%.1f lookupNsMedian=%.1f lookupNsMin=%.1f lookupNsMax=%.1f cpuNsMedian=%.1f cpuNsMin=%.1f cpuNsMax=%.1f%n",
                size, apps, after - before, perEntry, ns[batches / 2], ns[0], ns[batches - 1],
                cpu[batches / 2], cpu[0], cpu[batches - 1]);
    }

    /** How many questions found a copy (allow or deny): the gate's decision needs both. */
    private static long lookups(AccessMemory memory, String[] qApp, long[] qPerson, int n) {
        long hits = 0;
        int mask = qApp.length - 1;
        for (int i = 0; i < n; i++) {
            Optional<AccessCopy> copy = memory.recall(qApp[i & mask], qPerson[i & mask]);
            if (copy.isPresent() && copy.get().sharingVersion() == 42) {
                hits++;
            }
        }
        return hits;
    }

    private static long usedHeap(MemoryMXBean mx) throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, mx.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
