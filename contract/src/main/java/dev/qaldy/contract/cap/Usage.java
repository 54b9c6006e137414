package dev.qaldy.contract.cap;

/**
 * Usage counted at the edge: requests through the gate and CPU milliseconds of server code, both
 * non-negative. Sums saturate at {@link Long#MAX_VALUE}, which can only put an app to sleep sooner.
 */
record Usage(long requests, long cpuMs) {

    static final Usage NONE = new Usage(0, 0);

    Usage {
        if (requests < 0 || cpuMs < 0) {
            throw new IllegalArgumentException("usage must not be negative: " + requests + ", " + cpuMs);
        }
    }

    /** This and {@code other}, saturating. */
    Usage plus(Usage other) {
        return new Usage(Prices.saturatedAdd(requests, other.requests), Prices.saturatedAdd(cpuMs, other.cpuMs));
    }

    /** What it costs at {@code prices}, in millicents (saturating). */
    long cost(Prices prices) {
        return prices.cost(requests, cpuMs);
    }
}
