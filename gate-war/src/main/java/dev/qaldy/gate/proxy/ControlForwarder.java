package dev.qaldy.gate.proxy;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.data.DataBookmarks;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.hooks.EdgeHooks;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * The two routes forwarded to the control plane on their own terms, through the {@link Forwarder},
 * answered within {@code qaldy.gate.control-forward-timeout-ms}:
 * <ul>
 * <li>webhooks: {@code POST /hooks/<app>/<hook>} → {@code {control}/api/v1/hooks/<app>/<hook>},
 * body bounded by {@code qaldy.webhooks.max-body-bytes} (413), only {@link #HOOK_HEADERS};</li>
 * <li>app data: {@code /.qaldy/data/<collection>[/<id>]} → {@code {control}/api/v1/internal/data/<app>/…}
 * with the service token and {@code X-Qaldy-Person-Id}; a read the control plane cannot answer (or
 * one made while the view says failing) goes to the runtime host's replica instead
 * ({@code /.qaldy/edge-data/…}, issue 18), which answers or says 503.</li>
 * </ul>
 * Seed: the data API stops with the control plane: unreachable, late or 5xx is a 503 problem with
 * {@code Retry-After}, never a false 200 or a hang; sent whatever {@link ControlPlaneHealth} says,
 * and tells it; beyond {@link ControlRelays}' bound, 503 at once. A webhook is read whole first and,
 * when the control plane cannot be asked (the same failures, or the view says failing) or the hook's
 * deliveries already wait at the edge, checked and queued by the gate ({@link EdgeHooks}, issue 17).
 * Held by {@link UpstreamProxy}, the gate's one forwarder, with its references.
 */
public final class ControlForwarder {

    static final Pattern HOOK_PATH = Pattern.compile("/hooks/(" + AppLabel.PATTERN.pattern() + ")/([a-z0-9-]{1,40})");
    static final Pattern DATA_PATH = Pattern.compile("/\\.qaldy/data/([a-z0-9-]{1,40})(/[0-9]{1,19})?");
    static final Pattern DATA_QUERY = Pattern.compile("(?:(?:limit|after)=[0-9]{1,19})(?:&(?:limit|after)=[0-9]{1,19})?");
    /** The control plane keeps records to 16 KiB. */
    static final long MAX_DATA_BODY = 64 * 1024;
    /** {@code X-Qaldy-Signature}, the old scheme, only so the control plane can say it is no longer accepted. */
    static final List<String> HOOK_HEADERS = List.of("Content-Type", "Qaldy-Signature", "X-Qaldy-Signature", "Idempotency-Key",
            "X-Qaldy-Delivery", "User-Agent");
    /** The only headers of the control plane's answer passed back. */
    static final List<String> ANSWER_HEADERS = List.of("Content-Type", "Retry-After", "X-Qaldy-Replayed", DataBookmarks.HEADER,
            DataBookmarks.SOURCE, DataBookmarks.AS_OF);
    /** The runtime host's replica reads (issue 18). */
    static final String EDGE_DATA = "/.qaldy/edge-data/";

    private final GateConfig config;
    private final CellSecrets secrets;
    private final ControlPlaneHealth controlPlane;
    private final Forwarder forwarder;
    private final ControlRelays relays;
    private final EdgeHooks edge;
    private final Logger log;
    private final long maxHookBytes;
    private final RequestConfig answering;

    /**
     * @param maxHookBytes {@code qaldy.webhooks.max-body-bytes}
     * @param timeout      {@code qaldy.gate.control-forward-timeout-ms}
     */
    ControlForwarder(GateConfig config, CellSecrets secrets, ControlPlaneHealth controlPlane, Forwarder forwarder,
            ControlRelays relays, EdgeHooks edge, Logger log, long maxHookBytes, Duration timeout) {
        this.config = config;
        this.secrets = secrets;
        this.controlPlane = controlPlane;
        this.forwarder = forwarder;
        this.relays = relays;
        this.edge = edge;
        this.log = log;
        this.maxHookBytes = maxHookBytes;
        this.answering = Forwarder.answeringWithin(timeout);
    }

    static Page dataUnavailable() {
        return new Page(503, "control-plane-unreachable", "Temporarily unavailable",
                "This app can't reach its data for a moment, and nothing was changed. Please try again in a minute.",
                null, null);
    }

    void hook(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Matcher path = HOOK_PATH.matcher(req.getRequestURI());
        if (!path.matches()) {
            problem(res, Page.noRoute("/"));
            return;
        }
        if (!"POST".equals(req.getMethod())) {
            res.setHeader("Allow", "POST");
            problem(res, Page.methodNotAllowed());
            return;
        }
        if (req.getContentLengthLong() > maxHookBytes) {
            problem(res, hookTooLarge());
            return;
        }
        String app = path.group(1);
        String hook = path.group(2);
        BoundedInputStream in = forwarder.body(req.getInputStream(), maxHookBytes);
        byte[] body;
        try {
            body = in.readAllBytes(); // whole: the gate may have to check its signature itself (issue 17)
        } catch (IOException e) {
            if (in.exceeded()) {
                problem(res, hookTooLarge());
            } else if (in.tooSlow()) {
                problem(res, Page.requestTimeout());
            } else {
                log.log(Level.FINE, "gate: the client went away while sending webhook {0}/{1}: {2}", new Object[] {app, hook, e.toString()});
            }
            return;
        }
        String key = req.getHeader("Idempotency-Key");
        EdgeHooks.Delivery delivery = new EdgeHooks.Delivery(app, hook, req.getHeader("Qaldy-Signature"),
                req.getHeader("X-Qaldy-Signature") != null, key != null && !key.isBlank() ? key : req.getHeader("X-Qaldy-Delivery"),
                req.getContentType(), body);
        if (controlPlane.view().failing() || edge.waiting(app, hook)) {
            edge.answer(delivery, res); // not asked while failing; behind this hook's queue, never past it
            return;
        }
        ClassicHttpRequest request = new BasicClassicHttpRequest("POST", URI.create(config.controlUrl() + "/api/v1/hooks/"
                + app + "/" + hook));
        for (String name : HOOK_HEADERS) {
            copy(req, request, name);
        }
        Forwarder.forwarded(req, request);
        request.setEntity(new ByteArrayEntity(body, null));
        send(request, null, req, res, r -> edge.answer(delivery, r), hookTooLarge(), "webhook " + app + "/" + hook);
    }

    /** For a person the gate signed in and let in. */
    void data(String app, Session session, HttpServletRequest req, HttpServletResponse res) throws IOException {
        Matcher path = DATA_PATH.matcher(req.getRequestURI());
        String query = req.getQueryString();
        if (!path.matches() || (query != null && !query.isEmpty() && !DATA_QUERY.matcher(query).matches())) {
            problem(res, Page.noRoute("/"));
            return;
        }
        boolean item = path.group(2) != null;
        String method = req.getMethod();
        List<String> allowed = item ? List.of("GET", "PUT", "DELETE") : List.of("GET", "POST");
        if (!allowed.contains(method)) {
            res.setHeader("Allow", String.join(", ", allowed));
            problem(res, Page.methodNotAllowed());
            return;
        }
        if (req.getContentLengthLong() > MAX_DATA_BODY) {
            problem(res, Page.tooLarge(MAX_DATA_BODY));
            return;
        }
        String target = path.group(1) + (item ? path.group(2) : "") + (query == null || query.isEmpty() ? "" : "?" + query);
        Unavailable unavailable = "GET".equals(method) ? r -> fromReplica(app, target, req, r) : r -> problem(r, dataUnavailable());
        if ("GET".equals(method) && controlPlane.view().failing()) {
            unavailable.answer(res); // not asked while failing: the replica answers at once
            return;
        }
        ClassicHttpRequest request = new BasicClassicHttpRequest(method, URI.create(config.controlUrl() + "/api/v1/internal/data/"
                + app + "/" + path.group(1) + (item ? path.group(2) : "") + (query == null || query.isEmpty() ? "" : "?" + query)));
        copy(req, request, "Content-Type");
        Forwarder.forwarded(req, request);
        request.addHeader(ControlPlane.SERVICE_TOKEN_HEADER, secrets.toControl());
        request.addHeader("X-Qaldy-Person-Id", Long.toString(session.personId()));
        BoundedInputStream body = null;
        if ("POST".equals(method) || "PUT".equals(method)) {
            body = forwarder.send(req, request, MAX_DATA_BODY);
        }
        send(request, body, req, res, unavailable, Page.tooLarge(MAX_DATA_BODY), "data of " + app);
    }

    /** A read of {@code app}'s data from the runtime host's replica; 503 {@link #dataUnavailable()} when it has no answer. */
    private void fromReplica(String app, String target, HttpServletRequest req, HttpServletResponse res) throws IOException {
        ClassicHttpRequest request = new BasicClassicHttpRequest("GET", URI.create(config.runtimeUrl() + EDGE_DATA + target));
        request.addHeader(ControlPlane.SERVICE_TOKEN_HEADER, secrets.toRuntime());
        request.addHeader("X-Qaldy-App", app);
        copy(req, request, DataBookmarks.HEADER);
        try (ClassicHttpResponse response = forwarder.open(request, answering)) {
            if (response.getCode() != 200 && response.getCode() != 404) {
                problem(res, dataUnavailable());
                return;
            }
            answerHead(response, res);
            Forwarder.streamBack(response, res);
        } catch (IOException e) {
            log.log(Level.INFO, "gate: the runtime host's data replica cannot be asked for {0}: {1}", new Object[] {app, e.toString()});
            if (!res.isCommitted()) {
                problem(res, dataUnavailable());
            }
        }
    }

    /** How a route answers when the control plane cannot be asked: unreachable, late, 5xx, or the bound reached. */
    @FunctionalInterface
    interface Unavailable {
        void answer(HttpServletResponse res) throws IOException;
    }

    private void send(ClassicHttpRequest request, BoundedInputStream body, HttpServletRequest req, HttpServletResponse res,
            Unavailable unavailable, Page tooLarge, String what) throws IOException {
        try {
            relays.relay(() -> relay(request, body, req, res, unavailable, tooLarge, what));
        } catch (BulkheadException e) {
            relays.refused(what);
            unavailable.answer(res);
        }
    }

    private void relay(ClassicHttpRequest request, BoundedInputStream body, HttpServletRequest req, HttpServletResponse res,
            Unavailable unavailable, Page tooLarge, String what) throws IOException {
        UpstreamHealth.Call call = controlPlane.view().call();
        ClassicHttpResponse response;
        try {
            response = forwarder.open(request, answering);
        } catch (IOException e) {
            switch (Forwarder.failure(e, body, call, what)) {
                case BODY_TOO_LARGE -> problem(res, tooLarge);
                case BODY_TOO_SLOW -> problem(res, Page.requestTimeout());
                case CLIENT_GONE -> log.log(Level.FINE, "gate: the client went away while sending {0}: {1}", new Object[] {what, e.toString()});
                default -> {
                    log.log(Level.INFO, "gate: cannot reach the control plane for {0}: {1}", new Object[] {what, e.toString()});
                    unavailable.answer(res);
                }
            }
            return;
        }
        try (response) {
            Forwarder.answered(call, response);
            if (response.getCode() >= 500) {
                log.log(Level.INFO, "gate: the control plane answered {0} for {1}", new Object[] {response.getCode(), what});
                unavailable.answer(res);
                return;
            }
            answerHead(response, res);
            HttpEntity entity = response.getEntity();
            if (entity != null && entity.getContentLength() >= 0) {
                res.setContentLengthLong(entity.getContentLength());
            }
            Forwarder.streamBack(response, res);
        } catch (IOException e) {
            log.log(Level.FINE, "gate: the answer for {0} ended early: {1}", new Object[] {what, e.toString()});
        }
    }

    /** The answer's status and {@link #ANSWER_HEADERS}, with the gate's security headers and {@code no-store}. */
    private static void answerHead(ClassicHttpResponse response, HttpServletResponse res) {
        res.setStatus(response.getCode());
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        for (String name : ANSWER_HEADERS) {
            Header header = response.getFirstHeader(name);
            if (header != null) {
                res.setHeader(name, header.getValue());
            }
        }
    }

    private Page hookTooLarge() {
        return new Page(413, "body-too-large", "Request too large",
                "Webhook deliveries carry at most " + maxHookBytes + " bytes.", null, null);
    }

    private static void copy(HttpServletRequest req, ClassicHttpRequest request, String name) {
        String value = req.getHeader(name);
        if (value != null) {
            request.addHeader(name, value);
        }
    }

    /** Problem JSON (webhook senders and data clients are programs), with Retry-After on 503. */
    static void problem(HttpServletResponse res, Page page) throws IOException {
        Pages.sendProblem(res, page);
    }
}
