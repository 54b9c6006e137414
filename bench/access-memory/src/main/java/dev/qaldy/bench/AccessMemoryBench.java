package dev.qaldy.bench;

import dev.qaldy.gate.access.AccessAnswer;
import dev.qaldy.gate.access.AccessCopy;
import dev.qaldy.gate.access.AccessMemory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
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
 * <p>Usage: {@code AccessMemoryBench ENTRIES [APPS] [BATCHES]}. Prints one line:
 * {@code entries=N apps=A bytesPerEntry=B lookupNsMedian=… lookupNsMin=… lookupNsMax=…}.
 *
 * <p>The app name of each entry is a fresh String instance (as the gate parses it from the Host
 * header of the request that made the gate ask), so its bytes count per entry, as in the gate.
 */
public final class AccessMemoryBench {

    private static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int entries = Integer.parseInt(args[0]);
        int apps = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int batches = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        String[] appNames = new String[apps];
        for (int i = 0; i < apps; i++) {
            appNames[i] = "app-" + Integer.toString(i * 7919 + 100_000, 36); // like real names, ~9 chars
        }
        Clock clock = Clock.systemUTC();
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();

        // The newest-version map is per app (bounded by the cell's apps): fill it first, outside the measurement.
        AccessMemory memory = new AccessMemory(clock, Duration.ofMinutes(30), Math.max(entries, 1) * 2L);
        long now = clock.millis();
        for (int a = 0; a < apps; a++) {
            memory.learn(appNames[a], -1 - a, new AccessAnswer(AccessAnswer.Kind.ALLOW, 1, "bench", 42), now);
        }
        memory.cleanUp();
        long before = usedHeap(mx);
        for (int i = 0; i < entries; i++) {
            String app = new String(appNames[i % apps].toCharArray()); // a fresh instance, as from a request
            memory.learn(app, i, new AccessAnswer(AccessAnswer.Kind.ALLOW, 1, "bench", 42), now);
        }
        memory.cleanUp();
        long after = usedHeap(mx);
        long size = memory.size() - apps;
        double perEntry = (after - before) / (double) size;

        // Lookups: pre-made keys (app strings equal to but not the same instance as the stored ones).
        int keys = 1 << 16;
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
        double[] ns = new double[batches];
        for (int b = 0; b < batches; b++) {
            long t0 = System.nanoTime();
            hits += lookups(memory, qApp, qPerson, perBatch);
            ns[b] = (System.nanoTime() - t0) / (double) perBatch;
        }
        Arrays.sort(ns);
        sink = memory;
        if (hits != (long) perBatch * (5 + batches)) {
            throw new AssertionError("missed lookups: " + hits);
        }
        System.out.printf("entries=%d apps=%d heapDeltaBytes=%d bytesPerEntry=%.1f lookupNsMedian=%.1f lookupNsMin=%.1f lookupNsMax=%.1f%n",
                size, apps, after - before, perEntry, ns[batches / 2], ns[0], ns[batches - 1]);
    }

    private static long lookups(AccessMemory memory, String[] qApp, long[] qPerson, int n) {
        long hits = 0;
        int mask = qApp.length - 1;
        for (int i = 0; i < n; i++) {
            Optional<AccessCopy> copy = memory.recall(qApp[i & mask], qPerson[i & mask]);
            if (copy.isPresent() && copy.get().allows()) {
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
