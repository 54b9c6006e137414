package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookSignature;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The process {@link EdgeQueueCrashTest} kills: appends deliveries {"n":N} from N = args[1] on and hands
 * over (removes) the head now and then, printing "queued N" once an append returned (the gate's 202) and
 * "removed N" once a removal returned, until killed, or until a line on its input asks it to stop cleanly.
 */
public final class EdgeQueueCrashChild {

    private EdgeQueueCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long n = Long.parseLong(args[1]);
        BufferedReader stop = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (EdgeQueue queue = new EdgeQueue(dir, new EdgeQueue.Limits(1_000_000, 1L << 40, 1_000_000, 1L << 40),
                Logger.getLogger("crash-child"))) {
            System.out.println("open " + queue.count());
            System.out.flush();
            while (!stop.ready()) {
                byte[] body = ("{\"n\":" + n + ",\"pad\":\"" + "x".repeat((int) (n * 37 % 3000)) + "\"}").getBytes(StandardCharsets.UTF_8);
                Instant now = Instant.now();
                queue.append(new QueuedDelivery(UUID.randomUUID().toString(), "memo", "a", now,
                        HookSignature.sign("s", now.getEpochSecond(), body), "k" + n, "application/json", body));
                System.out.println("queued " + n);
                System.out.flush();
                if (n % 3 == 0 && queue.count() > 0) {
                    EdgeQueue.Entry head = queue.head(1).get(0);
                    queue.remove(head.position());
                    System.out.println("removed " + EdgeQueueCrashTest.number(head.delivery()));
                    System.out.flush();
                }
                n++;
            }
        }
        System.out.println("closed");
        System.out.flush();
    }
}
