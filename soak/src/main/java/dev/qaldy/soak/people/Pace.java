package dev.qaldy.soak.people;

/**
 * A token bucket on the soak's side: every person of the soak comes from 127.0.0.1, one client
 * address for the gate's shield, so the soak keeps its own calls under the shield's per-client
 * limits (the API's 300 a minute, sign-in's 30) instead of having them refused.
 */
final class Pace {

    private final double perMs;
    private final double burst;
    private double tokens;
    private long last = System.nanoTime();

    /**
     * @param perMinute tokens added a minute
     * @param burst     most tokens held
     */
    Pace(double perMinute, int burst) {
        this.perMs = perMinute / 60_000.0;
        this.burst = burst;
        this.tokens = burst;
    }

    /** Waits until a token is there and takes it. */
    void take() {
        while (true) {
            long waitMs;
            synchronized (this) {
                long now = System.nanoTime();
                tokens = Math.min(burst, tokens + (now - last) / 1_000_000.0 * perMs);
                last = now;
                if (tokens >= 1) {
                    tokens -= 1;
                    return;
                }
                waitMs = (long) Math.ceil((1 - tokens) / perMs);
            }
            try {
                Thread.sleep(Math.max(1, waitMs));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
