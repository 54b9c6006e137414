package dev.qaldy.runtime.testing;

import dev.qaldy.contract.health.UpstreamHealth;
import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * The runtime host's view of the control plane as the container wires it ({@code ControlPlaneHealth}):
 * its background prober on a thread of its own (a daemon here, for 15 s: a test class is shorter, and a
 * view left failing on a closed fake must not keep probing), asking the fake's {@code /api/v1/ping}
 * every 50 ms while failing, on the real clock (the tests move only the host's clock); no heartbeat, so a
 * fake counts only the calls the host makes for requests.
 */
public final class TestHealth {

    private TestHealth() {
    }

    /** A view of the control plane at {@code url}, its prober running. */
    public static UpstreamHealth probing(String url) {
        UpstreamHealth health = UpstreamHealth.controlPlane(url, Duration.ofMillis(50), Duration.ZERO, Duration.ofMillis(500), Clock.systemUTC(),
                Logger.getLogger(TestHealth.class.getName()));
        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        Thread prober = new Thread(() -> health.runProber(() -> System.nanoTime() < until), "test-control-probe");
        prober.setDaemon(true);
        prober.start();
        return health;
    }

    /** Waits (at most 10 s, polling) until {@code health}'s probe found the control plane back. */
    public static void awaitUp(UpstreamHealth health) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (health.failing()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the view still says failing after 10 s: " + health.view());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
    }
}
