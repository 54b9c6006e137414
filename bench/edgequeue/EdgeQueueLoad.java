import dev.qaldy.contract.hooks.HookSignature;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 17's edge-queue figure: COUNT distinct webhook deliveries (about 200 B of JSON each), signed as a
 * sender signs them (at send time, an Idempotency-Key each), sent by CONCURRENCY senders to the gate
 * while the control plane is down; each sender waits for its answer before its next delivery.
 * Bounded by COUNT and by LIMIT_S seconds. Prints one line of key=value figures:
 * accepted (202 with "queued":true), other statuses, the elapsed seconds, deliveries accepted a
 * second, and the 202's p50/p99/max in ms.
 *
 *   java -cp contract.jar EdgeQueueLoad.java GATE_URL HOST APP HOOK SECRET COUNT CONCURRENCY LIMIT_S
 * (GATE_URL on the cell's public host, e.g. http://localhost:8080: the gate routes by Host.)
 */
public class EdgeQueueLoad {
    public static void main(String[] a) throws Exception {
        String gate = a[0], app = a[2], hook = a[3], secret = a[4]; // a[1]: the Host, which is GATE_URL's (java.net.http sets it)
        int count = Integer.parseInt(a[5]), concurrency = Integer.parseInt(a[6]);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(a[7]));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create(gate + "/hooks/" + app + "/" + hook);
        AtomicInteger next = new AtomicInteger();
        long[] latencies = new long[count];
        AtomicInteger accepted = new AtomicInteger();
        Map<String, AtomicInteger> others = new ConcurrentHashMap<>();
        ExecutorService senders = Executors.newFixedThreadPool(concurrency);
        long t0 = System.nanoTime();
        for (int s = 0; s < concurrency; s++) {
            senders.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < count && System.nanoTime() < deadline) {
                    byte[] body = ("{\"n\":" + i + ",\"event\":\"bench.delivery\",\"note\":\"" + "x".repeat(160) + "\"}")
                            .getBytes(StandardCharsets.UTF_8);
                    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/json")
                            .header("Qaldy-Signature", HookSignature.sign(secret, Instant.now().getEpochSecond(), body))
                            .header("Idempotency-Key", "bench-" + i)
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
                    long start = System.nanoTime();
                    try {
                        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                        latencies[i] = System.nanoTime() - start;
                        if (response.statusCode() == 202 && response.body().contains("\"queued\":true")) {
                            accepted.incrementAndGet();
                        } else {
                            others.computeIfAbsent(Integer.toString(response.statusCode()), k -> new AtomicInteger()).incrementAndGet();
                        }
                    } catch (Exception e) {
                        others.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicInteger()).incrementAndGet();
                    }
                }
                return null;
            });
        }
        senders.shutdown();
        senders.awaitTermination(1, TimeUnit.HOURS);
        if (next.get() == 0) {
            throw new IllegalStateException("no delivery was sent");
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long[] sent = Arrays.stream(latencies).filter(l -> l > 0).sorted().toArray();
        Map<String, Integer> other = new TreeMap<>();
        others.forEach((k, v) -> other.put(k, v.get()));
        System.out.printf("accepted=%d sent=%d other=%s seconds=%.1f rate=%.0f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f%n", accepted.get(),
                sent.length, other.isEmpty() ? "none" : other.toString().replace(' ', '_'), seconds, accepted.get() / seconds,
                pct(sent, 0.50), pct(sent, 0.99), sent.length == 0 ? 0 : sent[sent.length - 1] / 1e6);
    }

    static double pct(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
