package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.ws.rs.ProcessingException;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * Why asking failed. Seed: only a control-plane failure (connection error, timeout, 5xx) is an
 * outage; the open breaker and a full bulkhead are its consequences (the API stopped answering
 * in time). Anything else is a gate error. Both end as 503 today; issue 3's memory will answer
 * control-plane failures from a remembered allow, never gate errors.
 */
public enum FailureClass {
    CONTROL_PLANE, GATE;

    /** Classifies a failure by its type and, for wrapped ones, its causes. */
    public static FailureClass of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ControlPlaneUnavailable || t instanceof TimeoutException
                    || t instanceof CircuitBreakerOpenException || t instanceof BulkheadException
                    || t instanceof ProcessingException) {
                return CONTROL_PLANE;
            }
        }
        return GATE;
    }
}
