package dev.qaldy.contract.cap;

/**
 * A cap state's prices in millicents (1/1000 cent): per request through the gate and per CPU ms of
 * server code. Costs saturate at {@link Long#MAX_VALUE}, which can only put an app to sleep sooner.
 */
public record Prices(long requestMillicents, long cpuMsMillicents) {

    public Prices {
        if (requestMillicents < 0 || cpuMsMillicents < 0) {
            throw new IllegalArgumentException("prices must not be negative: " + requestMillicents + ", " + cpuMsMillicents);
        }
    }

    /** Millicents, saturating. */
    public long cost(long requests, long cpuMs) {
        return saturatedAdd(saturatedMultiply(Math.max(0, requests), requestMillicents),
                saturatedMultiply(Math.max(0, cpuMs), cpuMsMillicents));
    }

    static long saturatedMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return (high == 0 && low >= 0) ? low : Long.MAX_VALUE;
    }

    /** For non-negative values; at most {@link Long#MAX_VALUE}. */
    public static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
