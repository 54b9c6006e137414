package dev.qaldy.gate.platform;

/**
 * The control plane failed to answer: connection refused or reset, a read timeout, or HTTP 5xx.
 * Only these count as a failure (seed: "a timeout, a connection error or a 5xx"); a 4xx is an
 * answer and never raises this.
 */
public class ControlPlaneUnavailable extends Exception {

    private static final long serialVersionUID = 1L;

    public ControlPlaneUnavailable(String reason) {
        super(reason);
    }

    public ControlPlaneUnavailable(String reason, Throwable cause) {
        super(reason, cause);
    }
}
