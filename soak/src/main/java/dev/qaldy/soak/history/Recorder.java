package dev.qaldy.soak.history;

import dev.qaldy.soak.Soak;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The history as it is made, by many threads at once: every request timed on the soak's side,
 * each line also written to {@code history.jsonl} at once (flushed), so a soak that died leaves
 * what it saw.
 */
public final class Recorder implements AutoCloseable {

    /** What a request answered: status, message, the gate's headers, and facts learned from the answer. */
    public record Answer(int status, String message, Map<String, String> headers, Map<String, String> learned) {
    }

    private final long seed;
    private final long started;
    private final List<String> components;
    private final boolean partitions;
    private final BufferedWriter file;
    private final AtomicLong ids = new AtomicLong();
    private final List<Op> ops = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    private final List<Run> runs = new ArrayList<>();
    private final List<Recovery> recoveries = new ArrayList<>();

    /** Starts a history; writes its head line to {@code file}; {@code partitions}: the plan could cut links. */
    public Recorder(long seed, long started, List<String> components, boolean partitions, Path file) throws IOException {
        this.seed = seed;
        this.started = started;
        this.components = List.copyOf(components);
        this.partitions = partitions;
        Files.createDirectories(file.getParent());
        this.file = Files.newBufferedWriter(file);
        write(HistoryFile.head(seed, started, components, partitions));
    }

    /**
     * Makes one request and records it: {@code start} is taken just before {@code call} runs and
     * {@code end} once it returned, {@code took} between them by the monotonic clock; the op's id
     * orders requests by their sending.
     */
    public Op record(String actor, Kind kind, String gate, String app, Map<String, String> facts, Supplier<Answer> call) {
        long id = ids.incrementAndGet();
        long start = Soak.CLOCK.millis();
        long sent = System.nanoTime();
        Answer a = call.get();
        long took = (System.nanoTime() - sent) / 1_000_000;
        long end = Soak.CLOCK.millis();
        Map<String, String> all = new java.util.LinkedHashMap<>(facts);
        all.putAll(a.learned());
        Op op = new Op(id, actor, kind, gate, app, start, end, took, a.status(), a.message(), a.headers(), all);
        synchronized (this) {
            ops.add(op);
            write(HistoryFile.line(op));
        }
        return op;
    }

    public synchronized void fault(Fault fault) {
        faults.add(fault);
        write(HistoryFile.line(fault));
    }

    public synchronized void run(Run run) {
        runs.add(run);
        write(HistoryFile.line(run));
    }

    public synchronized void recovery(Recovery recovery) {
        recoveries.add(recovery);
        write(HistoryFile.line(recovery));
    }

    /** The history so far, ending now. */
    public synchronized History snapshot() {
        List<Op> sorted = new ArrayList<>(ops);
        sorted.sort(java.util.Comparator.comparingLong(Op::id));
        long ended = Soak.CLOCK.millis();
        return new History(seed, started, ended, components, partitions, sorted, faults, runs, recoveries);
    }

    private void write(String line) {
        try {
            file.write(line);
            file.newLine();
            file.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the soak's history", e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        write(HistoryFile.tail(Soak.CLOCK.millis()));
        file.close();
    }
}
