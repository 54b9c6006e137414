package dev.qaldy.gate.proxy;

/**
 * How slowly a request body may arrive (issue 16: a client sending a byte every few seconds holds
 * one of the gate's request threads for as long as it likes, since the server's idle timer starts
 * again with every byte). As Apache's mod_reqtimeout ({@code body=20,MinRate=500}): the body may
 * take {@code graceMillis}, plus one second for every {@code minBytesPerSecond} bytes received.
 *
 * @param graceMillis       ms a body may take before it must keep up the rate; 0 with a rate of 0: no bound
 * @param minBytesPerSecond bytes a second that extend the time by one second
 */
public record BodyPace(long graceMillis, long minBytesPerSecond) {

    /** No bound (tests, the container's own reads). */
    public static final BodyPace NONE = new BodyPace(0, 0);

    public BodyPace {
        if (graceMillis < 0 || minBytesPerSecond < 0) {
            throw new IllegalArgumentException("a body pace needs a grace and a rate of 0 or more: " + graceMillis + " ms, "
                    + minBytesPerSecond + " B/s");
        }
    }

    /** True when {@code bytes} received after {@code elapsedNanos} are behind the pace. */
    public boolean late(long bytes, long elapsedNanos) {
        if (minBytesPerSecond == 0) {
            return false;
        }
        long allowedMillis = graceMillis + bytes * 1000 / minBytesPerSecond;
        return elapsedNanos / 1_000_000 > allowedMillis;
    }

    @Override
    public String toString() {
        return minBytesPerSecond + " B/s after " + graceMillis + " ms";
    }
}
