import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 14, finding 2: what one person sees through a hung API. One remembered person makes
 * sequential requests to an app (one keep-alive connection, as a browser tab would), a request
 * every {@code intervalMs} (start to start; a slow one is followed at once): {@code warmS} seconds
 * with the control plane up, then the control plane SIGSTOPped for {@code hangS} seconds, then
 * SIGCONT and {@code afterS} seconds more. Meanwhile, from the SIGCONT on, a second client asks
 * the control plane's own {@code /api/v1/ping}, one question at a time, so "the API answers again"
 * is a measured moment (the first 200's arrival), not a guess.
 *
 * <p>Run with the JDK's source launcher (no build), allowing the Host header:
 * {@code java -Djdk.httpclient.allowRestrictedHeaders=host OnePerson.java GATE_PORT CONTROL_PORT CONTROL_PID APP TOKEN WARM_S HANG_S AFTER_S INTERVAL_MS TRACE_FILE}.
 * Writes one line per request to TRACE_FILE ({@code phase ms-since-stop latency-ms status access code server-timing})
 * and a summary as {@code key=value} lines on stdout (latencies in ms, nearest-rank percentiles).
 * Loopback only; the loop is bounded by the phases' durations; it sends SIGCONT however it ends.
 */
public final class OnePerson {

    record Sample(String phase, long atMs, double latencyMs, int status, String access, String code, String timing) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 10) {
            System.err.println("usage: java OnePerson.java GATE_PORT CONTROL_PORT CONTROL_PID APP TOKEN WARM_S HANG_S AFTER_S INTERVAL_MS TRACE_FILE");
            System.exit(2);
        }
        int gatePort = Integer.parseInt(args[0]);
        int controlPort = Integer.parseInt(args[1]);
        String controlPid = args[2];
        String app = args[3];
        String token = args[4];
        long warmMs = Long.parseLong(args[5]) * 1000;
        long hangMs = Long.parseLong(args[6]) * 1000;
        long afterMs = Long.parseLong(args[7]) * 1000;
        long intervalMs = Long.parseLong(args[8]);
        Path trace = Path.of(args[9]);

        HttpClient person = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gatePort + "/"))
                .timeout(Duration.ofSeconds(30))
                .header("Host", app + ".localhost:" + gatePort)
                .header("Authorization", "Bearer " + token)
                .header("User-Agent", "qaldy-bench-one-person")
                .header("Accept", "text/html")
                .GET().build();

        List<Sample> samples = new ArrayList<>();
        AtomicLong apiBackAtMs = new AtomicLong(-1);
        long start = System.nanoTime();
        long stopAt = start + TimeUnit.MILLISECONDS.toNanos(warmMs);
        long contAt = stopAt + TimeUnit.MILLISECONDS.toNanos(hangMs);
        long end = contAt + TimeUnit.MILLISECONDS.toNanos(afterMs);
        boolean stopped = false;
        boolean continued = false;
        Thread pinger = null;
        try {
            long next = start;
            while (System.nanoTime() < end) {
                long now = System.nanoTime();
                if (!stopped && now >= stopAt) {
                    signal("STOP", controlPid);
                    stopped = true;
                }
                if (stopped && !continued && now >= contAt) {
                    signal("CONT", controlPid);
                    continued = true;
                    long contNanos = System.nanoTime();
                    pinger = new Thread(() -> pingUntilBack(controlPort, contNanos, stopAt, apiBackAtMs), "ping");
                    pinger.setDaemon(true);
                    pinger.start();
                }
                if (now < next) {
                    Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - now)));
                    continue;
                }
                String phase = !stopped ? "normal" : !continued ? "hang" : "after";
                long sent = System.nanoTime();
                int status;
                String access = "-";
                String code = "-";
                String timing = "-";
                try {
                    HttpResponse<byte[]> response = person.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    status = response.statusCode();
                    access = response.headers().firstValue("X-Qaldy-Access").orElse("-");
                    code = response.headers().firstValue("X-Qaldy-Code").orElse("-");
                    List<String> timings = response.headers().allValues("Server-Timing");
                    timing = timings.isEmpty() ? "-" : String.join(", ", timings).replace(' ', '_');
                } catch (IOException e) {
                    status = -1;
                }
                long done = System.nanoTime();
                samples.add(new Sample(phase, TimeUnit.NANOSECONDS.toMillis(sent - stopAt), (done - sent) / 1e6, status,
                        access, code, timing));
                next = sent + TimeUnit.MILLISECONDS.toNanos(intervalMs);
            }
        } finally {
            if (stopped && !continued) {
                signal("CONT", controlPid);
            }
        }
        if (pinger != null) {
            pinger.join(TimeUnit.SECONDS.toMillis(15));
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(trace))) {
            out.println("# phase ms-since-stop latency-ms status x-qaldy-access x-qaldy-code server-timing");
            for (Sample s : samples) {
                out.printf(Locale.ROOT, "%s %d %.1f %d %s %s %s%n", s.phase(), s.atMs(), s.latencyMs(), s.status(), s.access(), s.code(),
                        s.timing());
            }
        }
        summary(samples, hangMs, apiBackAtMs.get());
    }

    /**
     * Asks the control plane directly from the SIGCONT on, one question at a time (each waits up to
     * 10 s: a process waking from SIGSTOP answers its backlog late; then at once again), so this
     * client adds one connection to that backlog at most: the moment it answers again is when the
     * first 200 arrived, in ms since the STOP.
     */
    static void pingUntilBack(int controlPort, long fromNanos, long stopAt, AtomicLong backAtMs) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest ping = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controlPort + "/api/v1/ping"))
                .timeout(Duration.ofSeconds(10)).GET().build();
        long deadline = fromNanos + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    backAtMs.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopAt));
                    return;
                }
                Thread.sleep(50);
            } catch (IOException e) {
                // not yet: ask again
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static void signal(String signal, String pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, pid).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + pid + " failed");
        }
    }

    static void summary(List<Sample> samples, long hangMs, long apiBackAtMs) {
        List<Sample> normal = samples.stream().filter(s -> s.phase().equals("normal")).toList();
        List<Sample> hang = samples.stream().filter(s -> s.phase().equals("hang")).toList();
        List<Sample> settled = hang.stream().filter(s -> s.atMs() >= 2000).toList();
        List<Sample> after = samples.stream().filter(s -> s.phase().equals("after")).toList();
        print("normal", normal);
        print("hang", hang);
        print("hang_after_2s", settled);
        print("after", after);
        System.out.println("hang_non200=" + hang.stream().filter(s -> s.status() != 200).count());
        System.out.println("hang_slow_over_100ms_after_2s=" + settled.stream().filter(s -> s.latencyMs() > 100).count());
        System.out.println("hang_slow_over_1s=" + hang.stream().filter(s -> s.latencyMs() > 1000).count());
        System.out.println("api_back_ms_after_cont=" + (apiBackAtMs < 0 ? "never" : Long.toString(apiBackAtMs - hangMs)));
        long firstAsked = after.stream().filter(s -> s.access().equals("asked")).mapToLong(Sample::atMs).findFirst().orElse(-1);
        long firstApiCode = after.stream().filter(s -> s.code().equals("api")).mapToLong(Sample::atMs).findFirst().orElse(-1);
        System.out.println("gate_asked_ms_after_api_back=" + (firstAsked < 0 || apiBackAtMs < 0 ? "never" : Long.toString(firstAsked - apiBackAtMs)));
        System.out.println("runtime_api_ms_after_api_back=" + (firstApiCode < 0 || apiBackAtMs < 0 ? "never" : Long.toString(firstApiCode - apiBackAtMs)));
        System.out.println("after_non200=" + after.stream().filter(s -> s.status() != 200).count());
    }

    static void print(String name, List<Sample> samples) {
        double[] ms = samples.stream().mapToDouble(Sample::latencyMs).sorted().toArray();
        System.out.printf(Locale.ROOT, "%s_n=%d%n", name, ms.length);
        if (ms.length == 0) {
            return;
        }
        System.out.printf(Locale.ROOT, "%s_p50=%.1f%n%s_p90=%.1f%n%s_p99=%.1f%n%s_max=%.1f%n", name, rank(ms, 0.50), name,
                rank(ms, 0.90), name, rank(ms, 0.99), name, ms[ms.length - 1]);
    }

    /** Nearest-rank percentile of sorted values. */
    static double rank(double[] sorted, double p) {
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
