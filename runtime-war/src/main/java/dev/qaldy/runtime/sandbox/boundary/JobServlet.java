package dev.qaldy.runtime.sandbox.boundary;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.http.JsonAnswer;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.bundles.control.AppCode;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.Sourced;
import dev.qaldy.runtime.cap.RunCap;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ErrorPages;
import dev.qaldy.runtime.platform.ServiceRefusal;
import dev.qaldy.runtime.platform.ServingException;
import dev.qaldy.runtime.sandbox.control.JsonDepth;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.JobOutcome;
import dev.qaldy.runtime.sandbox.entity.JobRequest;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code POST /.qaldy/jobs/{job}}: runs one job handler of an app's live {@code server.js} for the
 * control plane's run dispatcher, and answers {@code 200 {"outcome": "succeeded"|"failed", "log": […],
 * "error"}}. Only the control plane may call it: the service token, {@code X-Qaldy-Run} and the
 * literal raw path are required, and a request the gate forwarded (it always names the person in
 * {@code X-Qaldy-Person-Email}, and never passes a client's {@code X-Qaldy-*} headers or
 * {@code /.qaldy/} paths) is answered 404 like any unknown path. Every answer closes its connection
 * ({@code Connection: close}): one run, one connection.
 */
@WebServlet(name = "jobs", urlPatterns = "/.qaldy/jobs/*")
public class JobServlet extends CodeServlet {

    private static final long serialVersionUID = 1L;
    static final Pattern RAW_PATH = Pattern.compile("/\\.qaldy/jobs/([A-Za-z0-9_-]{1,64})");
    /** Largest request (a webhook body of up to 256 KiB, JSON-escaped, plus the rest). */
    static final int MAX_REQUEST_BYTES = 2 * 1024 * 1024;

    public JobServlet() {
    }

    /** As CDI wires it; for tests. */
    public JobServlet(CellCredentials credentials, AppCode appCode, Sandbox sandbox, RunCap cap, Logger log,
            Duration retryAfter, int maxJsonDepth) {
        super(credentials, appCode, sandbox, cap, log, retryAfter, maxJsonDepth);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // A job is a POST that must run at most once: each comes on a connection of its own, so the dispatcher's
        // failed connect proves a run was not delivered (it waits in the queue), where a request written into a
        // kept-alive connection behind a partition could only be given up as in doubt (issue 19: the drill's cut
        // pass on Open Liberty failed a tick's run so).
        response.setHeader("Connection", "close");
        try {
            credentials.requireReady();
            if (!ServiceRefusal.admitted(credentials.check(request.getHeader(ServiceDirection.HEADER), ServiceDirection.CONTROL_TO_RUNTIME),
                    request, response, credentials, "a job")) {
                return;
            }
            Matcher path = RAW_PATH.matcher(request.getRequestURI());
            String runHeader = request.getHeader("X-Qaldy-Run");
            String app = request.getHeader("X-Qaldy-App");
            if (!path.matches() || runHeader == null || !runHeader.matches("[0-9]{1,19}")
                    || request.getHeader("X-Qaldy-Person-Email") != null
                    || app == null || !AppLabel.valid(app.toLowerCase(Locale.ROOT))) {
                ErrorPages.write(response, 404, "not-found", "Not found", "There is no page at this address.", null);
                return;
            }
            if (!"POST".equals(request.getMethod())) {
                response.setHeader("Allow", "POST");
                ErrorPages.write(response, 405, "method-not-allowed", "Method not allowed", "Jobs are run with POST.", null);
                return;
            }
            JobRequest job = jobRequest(request, path.group(1), Long.parseLong(runHeader));
            if (job == null) {
                ErrorPages.write(response, 400, "bad-request", "Bad request", "The body must be the job run's JSON.", null);
                return;
            }
            Sourced<Bundle> code = appCode.current(app.toLowerCase(Locale.ROOT));
            if (JsonDepth.exceeds(job.payload(), maxJsonDepth)) {
                write(response, JobOutcome.failed(java.util.List.of(), "the webhook body is nested too deeply (JSON deeper than "
                        + maxJsonDepth + " levels of arrays and objects); the platform did not run the job"), code.source().header());
                return;
            }
            long cpuStart = RunCap.cpuNow();
            JobOutcome outcome;
            try {
                outcome = sandbox.runJob(code.value(), job, request.getHeader(DataGrants.HEADER));
            } finally {
                cap.ranJob(app.toLowerCase(Locale.ROOT), RunCap.cpuMillisSince(cpuStart)); // billed like a handler's CPU
            }
            write(response, outcome, code.source().header());
        } catch (ServingException e) {
            log.log(Level.INFO, "job {0}: {1} ({2})", new Object[] {request.getRequestURI(), e.status(), e.getMessage()});
            ErrorPages.write(response, e, null, retryAfter.toSeconds());
        } catch (RuntimeException e) {
            String id = UUID.randomUUID().toString();
            log.log(Level.SEVERE, "Unexpected failure " + id + " running job " + request.getRequestURI(), e);
            ErrorPages.write(response, 500, "internal", "Something went wrong", "The runtime host failed to run this job.", null);
        }
    }

    /** The run's JSON body, or null when it is not one. */
    static JobRequest jobRequest(HttpServletRequest request, String job, long runId) throws IOException {
        byte[] body = request.getInputStream().readNBytes(MAX_REQUEST_BYTES + 1);
        if (body.length > MAX_REQUEST_BYTES) {
            return null;
        }
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                return null;
            }
            json = value.asJsonObject();
        } catch (RuntimeException e) {
            return null;
        }
        String payload = json.get("payload") instanceof JsonString text ? text.getString() : null;
        return new JobRequest(runId, json.getString("tick", ""), json.getString("actor", ""), job, payload);
    }

    private static void write(HttpServletResponse response, JobOutcome outcome, String codeSource) throws IOException {
        JsonArrayBuilder lines = Json.createArrayBuilder();
        outcome.log().forEach(lines::add);
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("outcome", outcome.succeeded() ? "succeeded" : "failed")
                .add("log", lines)
                .add("code", codeSource);
        if (outcome.error() != null) {
            json.add("error", outcome.error());
        }
        JsonAnswer.write(response, 200, json.build().toString());
    }
}
