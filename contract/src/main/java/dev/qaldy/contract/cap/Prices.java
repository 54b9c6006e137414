package dev.qaldy.contract.cap;

/**
 * The price list a cap state carries, in millicents (1 millicent = 1/1000 of a cent, so
 * 100,000 millicents are one dollar): per request through the gate and per CPU millisecond of
 * {@code server.js} on the runtime host. Costs never overflow: past {@link Long#MAX_VALUE} they
 * stay there, which can only put an app to sleep sooner.
 *
 * @param requestMillicents price of one request through the gate
 * @param cpuMsMillicents   price of one CPU millisecond of server code
 */
public record Prices(long requestMillicents, long cpuMsMillicents) {

    public Prices {
        if (requestMillicents < 0 || cpuMsMillicents < 0) {
            throw new IllegalArgumentException("prices must not be negative: " + requestMillicents + ", " + cpuMsMillicents);
        }
    }

    /** The cost of {@code requests} requests and {@code cpuMs} CPU milliseconds, in millicents (saturating). */
    public long cost(long requests, long cpuMs) {
        return saturatedAdd(saturatedMultiply(Math.max(0, requests), requestMillicents),
                saturatedMultiply(Math.max(0, cpuMs), cpuMsMillicents));
    }

    static long saturatedMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return (high == 0 && low >= 0) ? low : Long.MAX_VALUE;
    }

    /** a + b for non-negative values, at most {@link Long#MAX_VALUE}. */
    public static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
