package dev.qaldy.cell;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Asks a gate for an app that exists, again and again, while the gate stops and starts, and keeps
 * what each answer was: who made it (the gate's filter marks every answer of app traffic with an
 * {@code X-Qaldy-*} header; the server's own answers have none) and its status. Bounded: at most
 * {@link #MAX_REQUESTS} requests, one every {@link #PACE}, each waiting at most 2 s; {@link #close}
 * stops it.
 */
final class StartingGate implements AutoCloseable {

    static final int MAX_REQUESTS = 4000;
    static final Duration PACE = Duration.ofMillis(150);

    /**
     * One answer (or none).
     *
     * @param atMs    when it was asked (epoch ms)
     * @param status  the HTTP status; -1 when the connection was refused, reset or timed out
     * @param byGate  it carries an {@code X-Qaldy-*} header: the gate's filter answered
     * @param access  its {@code X-Qaldy-Access}, or null
     */
    record Answer(long atMs, int status, boolean byGate, String access) {
        /** What the issue forbids while a gate starts: a 404 or 200 that the gate did not make, or any 404. */
        boolean wrong() {
            return status == 404 || (status >= 200 && status < 600 && status != 503 && !byGate);
        }
    }

    private final Cell cell;
    private final Supplier<HttpRequest> request;
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    /** Starts asking with {@code request} (built anew for each request). */
    StartingGate(Cell cell, Supplier<HttpRequest> request) {
        this.cell = cell;
        this.request = request;
        this.thread = new Thread(this::run, "starting-gate-prober");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        for (int i = 0; i < MAX_REQUESTS && running; i++) {
            long at = System.currentTimeMillis();
            try {
                HttpResponse<String> response = cell.http().send(request.get(), HttpResponse.BodyHandlers.ofString());
                boolean byGate = response.headers().map().keySet().stream().anyMatch(h -> h.toLowerCase().startsWith("x-qaldy-"));
                answers.add(new Answer(at, response.statusCode(), byGate, response.headers().firstValue("X-Qaldy-Access").orElse(null)));
            } catch (IOException e) {
                answers.add(new Answer(at, -1, false, null));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                Thread.sleep(PACE.toMillis()); // the pace of a person reloading, not a wait for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Every answer so far. */
    List<Answer> answers() {
        return List.copyOf(answers);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
    }
}
