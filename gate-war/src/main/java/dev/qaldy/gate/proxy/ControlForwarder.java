package dev.qaldy.gate.proxy;

import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The two routes the gate forwards to the control plane on their own terms, with short bounded
 * timeouts ({@code qaldy.gate.control-forward-timeout-ms}, 5 s, to connect and to answer):
 * <ul>
 * <li>webhooks: {@code POST /hooks/<app>/<hook>} → {@code POST {control}/api/v1/hooks/<app>/<hook>},
 * body streamed and bounded by {@code qaldy.webhooks.max-body-bytes} (413), only the headers a
 * delivery needs;</li>
 * <li>an app's data: {@code /.qaldy/data/<collection>[/<id>]} on the app's origin →
 * {@code {control}/api/v1/internal/data/<app>/<collection>[/<id>]} with the service token and the
 * person the gate verified in {@code X-Qaldy-Person-Id}.</li>
 * </ul>
 * Seed: webhooks and the data API stop with the control plane. When it cannot be reached, does not
 * answer in time or answers 5xx, the caller gets 503 problem JSON with {@code Retry-After}: never
 * 200 for something not recorded, never a 502 with a stack, never a hang.
 */
@ApplicationScoped
public class ControlForwarder {

    static final Pattern HOOK_PATH = Pattern.compile("/hooks/([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)/([a-z0-9-]{1,40})");
    static final Pattern DATA_PATH = Pattern.compile("/\\.qaldy/data/([a-z0-9-]{1,40})(/[0-9]{1,19})?");
    static final Pattern DATA_QUERY = Pattern.compile("(?:(?:limit|after)=[0-9]{1,19})(?:&(?:limit|after)=[0-9]{1,19})?");
    /** Largest data request body passed on (the control plane keeps records to 16 KiB). */
    static final long MAX_DATA_BODY = 64 * 1024;
    /**
     * Request headers a webhook delivery keeps on its way to the control plane ({@code X-Qaldy-Signature}, the
     * old scheme, only so the control plane can say it is no longer accepted).
     */
    static final List<String> HOOK_HEADERS = List.of("Content-Type", "Qaldy-Signature", "X-Qaldy-Signature", "Idempotency-Key",
            "X-Qaldy-Delivery", "User-Agent");
    private static final int BUFFER_BYTES = 16 * 1024;

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    Logger log;

    @Inject
    @ConfigProperty(name = "qaldy.webhooks.max-body-bytes", defaultValue = "262144")
    long maxHookBytes;

    @Inject
    @ConfigProperty(name = "qaldy.gate.control-forward-timeout-ms", defaultValue = "5000")
    long timeoutMillis;

    private HttpClient http;

    @PostConstruct
    void start() {
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofMillis(timeoutMillis)).build();
    }

    /** The answer while the control plane cannot take a webhook. */
    static Page hooksUnavailable() {
        return new Page(503, "control-plane-unreachable", "Control plane unreachable",
                "The control plane is unreachable; retry later. Nothing was recorded, so send this delivery again.",
                null, null);
    }

    /** The answer while the control plane cannot serve an app's data. */
    static Page dataUnavailable() {
        return new Page(503, "control-plane-unreachable", "Control plane unreachable",
                "The app's data is kept by Qaldy's control plane, which is unreachable; retry later. Nothing was changed.",
                null, null);
    }

    /** A webhook delivery on the public origin. */
    public void hook(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Matcher path = HOOK_PATH.matcher(req.getRequestURI());
        if (!path.matches()) {
            problem(res, Page.noRoute());
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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(config.controlUrl() + "/api/v1/hooks/"
                + path.group(1) + "/" + path.group(2)));
        for (String name : HOOK_HEADERS) {
            copy(req, request, name);
        }
        forwarded(req, request);
        BoundedInputStream body = new BoundedInputStream(req.getInputStream(), maxHookBytes);
        request.POST(publisher(body, req.getContentLengthLong()));
        send(request, body, req, res, hooksUnavailable(), hookTooLarge(), "webhook " + path.group(1) + "/" + path.group(2));
    }

    /** An app's data, for a person the gate signed in and let in. */
    public void data(String app, Session session, HttpServletRequest req, HttpServletResponse res) throws IOException {
        Matcher path = DATA_PATH.matcher(req.getRequestURI());
        String query = req.getQueryString();
        if (!path.matches() || (query != null && !query.isEmpty() && !DATA_QUERY.matcher(query).matches())) {
            problem(res, Page.noRoute());
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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(config.controlUrl() + "/api/v1/internal/data/"
                + app + "/" + path.group(1) + (item ? path.group(2) : "") + (query == null || query.isEmpty() ? "" : "?" + query)));
        copy(req, request, "Content-Type");
        forwarded(req, request);
        request.header(ControlPlane.SERVICE_TOKEN_HEADER, secrets.serviceToken());
        request.header("X-Qaldy-Person-Id", Long.toString(session.personId()));
        BoundedInputStream body = null;
        if ("POST".equals(method) || "PUT".equals(method)) {
            body = new BoundedInputStream(req.getInputStream(), MAX_DATA_BODY);
            request.method(method, publisher(body, req.getContentLengthLong()));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        send(request, body, req, res, dataUnavailable(), Page.tooLarge(MAX_DATA_BODY), "data of " + app);
    }

    private void send(HttpRequest.Builder request, BoundedInputStream body, HttpServletRequest req, HttpServletResponse res,
            Page unavailable, Page tooLarge, String what) throws IOException {
        HttpResponse<InputStream> response;
        try {
            response = http.send(request.timeout(Duration.ofMillis(timeoutMillis)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            if (body != null && body.exceeded()) {
                problem(res, tooLarge);
            } else if (body != null && body.clientFailed()) {
                log.log(Level.FINE, "gate: the client went away while sending {0}: {1}", new Object[] {what, e.toString()});
            } else {
                log.log(Level.INFO, "gate: cannot reach the control plane for {0}: {1}", new Object[] {what, e.toString()});
                problem(res, unavailable);
            }
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problem(res, unavailable);
            return;
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() >= 500) {
                log.log(Level.INFO, "gate: the control plane answered {0} for {1}", new Object[] {response.statusCode(), what});
                problem(res, unavailable);
                return;
            }
            res.setStatus(response.statusCode());
            Pages.securityHeaders(res);
            res.setHeader("Cache-Control", "no-store");
            for (String name : List.of("Content-Type", "Retry-After", "X-Qaldy-Replayed")) {
                response.headers().firstValue(name).ifPresent(value -> res.setHeader(name, value));
            }
            response.headers().firstValueAsLong("Content-Length").ifPresent(res::setContentLengthLong);
            OutputStream out = res.getOutputStream();
            byte[] buffer = new byte[BUFFER_BYTES];
            int n;
            while ((n = in.read(buffer)) != -1) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            log.log(Level.FINE, "gate: the answer for {0} ended early: {1}", new Object[] {what, e.toString()});
        }
    }

    private Page hookTooLarge() {
        return new Page(413, "body-too-large", "Request too large",
                "Webhook deliveries carry at most " + maxHookBytes + " bytes.", null, null);
    }

    private static HttpRequest.BodyPublisher publisher(BoundedInputStream body, long declared) {
        return declared > 0
                ? HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> body), declared)
                : HttpRequest.BodyPublishers.ofInputStream(() -> body);
    }

    private void copy(HttpServletRequest req, HttpRequest.Builder request, String name) {
        String value = req.getHeader(name);
        if (value != null) {
            try {
                request.header(name, value);
            } catch (IllegalArgumentException e) {
                log.log(Level.FINE, "gate: dropped request header {0}", name);
            }
        }
    }

    private static void forwarded(HttpServletRequest req, HttpRequest.Builder request) {
        request.header("X-Forwarded-For", ProxyHeaders.forwardedFor(req.getAttribute(ProxyHeaders.CLIENT_ADDRESS), req.getRemoteAddr()));
        request.header("X-Forwarded-Proto", req.getScheme());
        String host = req.getHeader("Host");
        if (host != null) {
            request.header("X-Forwarded-Host", host);
        }
    }

    /** The gate's own answer as problem JSON (webhook senders and data clients are programs), with Retry-After on 503. */
    static void problem(HttpServletResponse res, Page page) throws IOException {
        if (res.isCommitted()) {
            return;
        }
        res.resetBuffer();
        res.setStatus(page.status());
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        if (page.status() == 503) {
            res.setHeader("Retry-After", Integer.toString(Page.RETRY_AFTER_SECONDS));
        }
        byte[] body = Pages.problemJson(page).getBytes(StandardCharsets.UTF_8);
        res.setContentType("application/problem+json");
        res.setContentLength(body.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(body);
        }
    }
}
