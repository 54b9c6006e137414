package dev.qaldy.gate.access;

import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import jakarta.ws.rs.ProcessingException;
import java.io.IOException;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * Why asking failed. Seed: only a control-plane failure (connection refused or reset, timeout,
 * 5xx) is an outage; a question not asked because the gate's view of the control plane says failing
 * ({@link ControlPlaneUnavailable} too) and a full bulkhead are its consequences (the API stopped
 * answering in time), so they count too. Anything else is a gate error, and only a control-plane
 * failure may be answered from a remembered copy.
 */
public enum FailureClass {
    CONTROL_PLANE, GATE;

    /** Classifies a failure by its type and, for wrapped ones, its causes. */
    public static FailureClass of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ControlPlaneUnavailable || t instanceof TimeoutException || t instanceof BulkheadException
                    || (t instanceof ProcessingException && causedByIo(t))) {
                return CONTROL_PLANE;
            }
        }
        return GATE;
    }

    /**
     * True when an I/O error (connect refused, reset, read timeout, unknown host) is among the
     * causes: a REST client failure of the network, not of the gate's own code.
     */
    static boolean causedByIo(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }
}
