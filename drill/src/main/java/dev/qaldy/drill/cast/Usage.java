package dev.qaldy.drill.cast;

import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.drill.cell.Seen;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * Usage reported to the control plane as a gate reports what it counted ({@code POST
 * /api/v1/internal/usage} with the cell's service token, on the control plane's own port): how a
 * drill or soak puts an account over its cap without thousands of real requests through the
 * shield's rate limits.
 */
public final class Usage {

    private Usage() {
    }

    /**
     * One batch of {@code requests} requests of {@code app}; the same {@code batchId} is billed once
     * (send it again after an unknown outcome). The answer as the control plane gave it.
     */
    public static Seen report(CellControl cell, Http http, String batchId, String app, long requests) {
        String report = "{\"batchId\":\"" + batchId + "\",\"reporter\":\"drill\",\"items\":[{\"app\":" + Json.quote(app)
                + ",\"requests\":" + requests + ",\"cpuMs\":0}]}";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.controlPort() + "/api/v1/internal/usage"))
                .timeout(Duration.ofSeconds(30)).header("X-Qaldy-Service-Token", cell.serviceToken())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(report)).build());
    }
}
