package dev.qaldy.contract.cap;

/** Requests and CPU ms counted at the edge, non-negative; sums saturate. */
record Usage(long requests, long cpuMs) {

    static final Usage NONE = new Usage(0, 0);

    Usage {
        if (requests < 0 || cpuMs < 0) {
            throw new IllegalArgumentException("usage must not be negative: " + requests + ", " + cpuMs);
        }
    }

    Usage plus(Usage other) {
        return new Usage(Prices.saturatedAdd(requests, other.requests), Prices.saturatedAdd(cpuMs, other.cpuMs));
    }

    /** Millicents, saturating. */
    long cost(Prices prices) {
        return prices.cost(requests, cpuMs);
    }
}
