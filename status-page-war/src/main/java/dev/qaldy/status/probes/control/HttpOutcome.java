package dev.qaldy.status.probes.control;

/**
 * What one readiness request got: an HTTP answer, or a failure with no answer.
 *
 * @param status    the HTTP status, or {@code null} when nothing answered
 * @param body      the answer's body (possibly cut short), or {@code ""}
 * @param failure   why nothing answered, for people (e.g. "connection refused"), or {@code null}
 * @param latencyMs milliseconds from sending to the full answer or the failure
 */
public record HttpOutcome(Integer status, String body, String failure, long latencyMs) {

    public static HttpOutcome answered(int status, String body, long latencyMs) {
        return new HttpOutcome(status, body == null ? "" : body, null, latencyMs);
    }

    public static HttpOutcome failed(String failure, long latencyMs) {
        return new HttpOutcome(null, "", failure, latencyMs);
    }

    /** True when an HTTP answer came back, whatever its status. */
    public boolean answered() {
        return status != null;
    }
}
