import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 18's load for bench/edgedata/run (java EdgeDataLoad.java MODE …), on the loopback only, bounded in count and time:
 * <ul>
 * <li>{@code write API TOKEN APP COUNT THREADS}: COUNT records (about 200 B of JSON each) created through the public
 * data API by THREADS writers → {@code written=N other=N seconds=S rate=R head=<highest bookmark>};</li>
 * <li>{@code lag API TOKEN APP RUNTIME COUNT PER_SECOND}: COUNT records written at PER_SECOND, and for each the time from
 * its answer to the runtime host's replica holding its bookmark (its /health/ready polled every 10 ms)
 * → {@code count=N p50_ms=… p99_ms=… max_ms=…};</li>
 * <li>{@code until RUNTIME BOOKMARK TIMEOUT_S}: waits until the replica holds BOOKMARK → {@code seconds=S}.</li>
 * </ul>
 * API is the control plane's base URL (http://127.0.0.1:port), RUNTIME the runtime host's.
 */
public class EdgeDataLoad {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final Pattern POSITION = Pattern.compile("\"position\"\\s*:\\s*\"?([0-9]+)");

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "write" -> write(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            case "lag" -> lag(args[1], args[2], args[3], args[4], Integer.parseInt(args[5]), Integer.parseInt(args[6]));
            case "until" -> until(args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("write, lag or until");
        }
    }

    static long create(String api, String token, String app, int i) throws Exception {
        String body = "{\"name\":\"bench-" + i + "\",\"message\":\"" + "x".repeat(150) + "\",\"at\":\"2026-12-05T00:00:00Z\"}";
        HttpResponse<Void> answer = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/apps/" + app + "/data/entries"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding());
        if (answer.statusCode() != 201) {
            return -1;
        }
        return Long.parseLong(answer.headers().firstValue("X-Qaldy-Data-Bookmark").orElse("-1"));
    }

    static void write(String api, String token, String app, int count, int threads) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger written = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        AtomicLong head = new AtomicLong();
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MINUTES.toNanos(30);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int t = 0; t < threads; t++) {
            pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < count && System.nanoTime() < deadline) {
                    try {
                        long bookmark = create(api, token, app, i);
                        if (bookmark < 0) {
                            other.incrementAndGet();
                        } else {
                            written.incrementAndGet();
                            head.accumulateAndGet(bookmark, Math::max);
                        }
                    } catch (Exception e) {
                        other.incrementAndGet();
                    }
                }
                return null;
            });
        }
        pool.shutdown();
        pool.awaitTermination(31, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("written=%d other=%d seconds=%.1f rate=%.0f head=%d%n", written.get(), other.get(), seconds,
                written.get() / seconds, head.get());
    }

    static long position(String runtime) {
        try {
            HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create(runtime + "/health/ready"))
                    .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = POSITION.matcher(ready.body());
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    static void lag(String api, String token, String app, String runtime, int count, int perSecond) throws Exception {
        List<Long> lags = Collections.synchronizedList(new ArrayList<>());
        long gapNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long next = System.nanoTime();
        ExecutorService waiters = Executors.newFixedThreadPool(16);
        for (int i = 0; i < count; i++) {
            long now = System.nanoTime();
            if (next > now) {
                TimeUnit.NANOSECONDS.sleep(next - now);
            }
            next += gapNanos;
            long bookmark = create(api, token, app, 1_000_000 + i);
            long acked = System.nanoTime();
            if (bookmark < 0) {
                continue;
            }
            waiters.submit(() -> {
                long limit = acked + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < limit) {
                    if (position(runtime) >= bookmark) {
                        lags.add((System.nanoTime() - acked) / 1_000_000);
                        return null;
                    }
                    TimeUnit.MILLISECONDS.sleep(10);
                }
                return null;
            });
        }
        waiters.shutdown();
        waiters.awaitTermination(2, TimeUnit.MINUTES);
        List<Long> sorted = new ArrayList<>(lags);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            System.out.println("count=0");
            return;
        }
        System.out.printf("count=%d p50_ms=%d p99_ms=%d max_ms=%d%n", sorted.size(), sorted.get(sorted.size() / 2),
                sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)), sorted.get(sorted.size() - 1));
    }

    static void until(String runtime, long bookmark, int timeoutSeconds) throws Exception {
        long start = System.nanoTime();
        long limit = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < limit) {
            if (position(runtime) >= bookmark) {
                System.out.printf("seconds=%.1f%n", (System.nanoTime() - start) / 1e9);
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        System.out.println("seconds=timeout");
    }
}
