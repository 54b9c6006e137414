package dev.qaldy.gate.proxy;

import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.session.SessionCookie;
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
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Forwards one request upstream and its response back, streaming both bodies (never holding a
 * whole body), dropping hop-by-hop headers both ways and setting {@code X-Forwarded-For/-Proto/-Host}.
 * An upstream that cannot be reached gets the person a calm page, never a stack trace; the
 * upstream response is released in {@code finally}.
 */
@ApplicationScoped
public class UpstreamProxy {

    private static final int BUFFER_BYTES = 16 * 1024;

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    Logger log;

    /** Largest request body passed to an app, bytes (the control plane bounds its own uploads). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.max-body-bytes", defaultValue = "10485760")
    long maxBodyBytes;

    /** How long to wait for a TCP connection upstream, ms. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-connect-timeout-ms", defaultValue = "2000")
    long connectTimeoutMillis;

    /** How long to wait for an upstream's response headers, ms (uploads included). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-timeout-ms", defaultValue = "120000")
    long responseTimeoutMillis;

    private HttpClient http;

    @PostConstruct
    void start() {
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofMillis(connectTimeoutMillis))
                .build();
    }

    /**
     * App traffic to the runtime host, with {@code X-Qaldy-App}, {@code X-Qaldy-Person-Email} and
     * the service token; the person's own Authorization and session cookie stay at the gate. A
     * public site's traffic has no {@code session} (null) and names no person: the runtime host
     * then serves static files only.
     */
    public void toRuntime(String app, Session session, HttpServletRequest req, HttpServletResponse res) throws IOException {
        Map<String, String> added = session == null
                ? Map.of("X-Qaldy-App", app, ControlPlane.SERVICE_TOKEN_HEADER, secrets.serviceToken())
                : Map.of(
                        "X-Qaldy-App", app,
                        "X-Qaldy-Person-Email", session.email(),
                        ControlPlane.SERVICE_TOKEN_HEADER, secrets.serviceToken());
        forward(Upstream.RUNTIME, config.runtimeUrl(), req, res, added, maxBodyBytes);
    }

    /** {@code /api} on the public origin to the control plane, credentials as the caller sent them. */
    public void toControl(HttpServletRequest req, HttpServletResponse res) throws IOException {
        forward(Upstream.CONTROL, config.controlUrl(), req, res, Map.of(), -1);
    }

    private void forward(Upstream upstream, URI base, HttpServletRequest req, HttpServletResponse res,
            Map<String, String> added, long limit) throws IOException {
        long declared = req.getContentLengthLong();
        if (limit >= 0 && declared > limit) {
            Pages.send(req, res, Page.tooLarge(limit));
            return;
        }
        URI target;
        try {
            String query = req.getQueryString();
            target = URI.create(base + req.getRequestURI() + (query == null ? "" : "?" + query));
        } catch (IllegalArgumentException e) {
            Pages.send(req, res, Page.badPath());
            return;
        }
        BoundedInputStream body = declared > 0 || req.getHeader("Transfer-Encoding") != null
                ? new BoundedInputStream(req.getInputStream(), limit) : null;
        HttpRequest request = request(upstream, target, req, body, declared, added);

        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException e) {
            unreachable(upstream, req, res, e);
            return;
        } catch (HttpTimeoutException e) {
            log.log(Level.INFO, "gate: {0} did not answer {1} {2} in time", new Object[] {upstream, req.getMethod(), target.getPath()});
            Pages.send(req, res, Page.gatewayTimeout());
            return;
        } catch (IOException e) {
            if (body != null && body.exceeded()) {
                Pages.send(req, res, Page.tooLarge(limit));
            } else if (body != null && body.clientFailed()) {
                log.log(Level.FINE, "gate: the client went away while sending its body: {0}", e.toString());
            } else {
                unreachable(upstream, req, res, e);
            }
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unreachable(upstream, req, res, e);
            return;
        }
        relay(upstream, base, response, req, res);
    }

    private HttpRequest request(Upstream upstream, URI target, HttpServletRequest req, BoundedInputStream body,
            long declared, Map<String, String> added) {
        HttpRequest.BodyPublisher publisher;
        if (body == null) {
            publisher = HttpRequest.BodyPublishers.noBody();
        } else if (declared > 0) {
            publisher = HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> body), declared);
        } else {
            publisher = HttpRequest.BodyPublishers.ofInputStream(() -> body);
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(target)
                .timeout(Duration.ofMillis(responseTimeoutMillis))
                .method(req.getMethod(), publisher);

        Set<String> connection = ProxyHeaders.connectionTokens(Collections.list(req.getHeaders("Connection")));
        for (String name : Collections.list(req.getHeaderNames())) {
            if (ProxyHeaders.forwardRequestHeader(name, connection, upstream)) {
                for (String value : Collections.list(req.getHeaders(name))) {
                    header(builder, name, value);
                }
            }
        }
        if (upstream == Upstream.RUNTIME) {
            for (String cookie : Collections.list(req.getHeaders("Cookie"))) {
                String kept = SessionCookie.without(cookie, SessionCookie.NAME);
                if (kept != null) {
                    header(builder, "Cookie", kept);
                }
            }
        }
        header(builder, "X-Forwarded-For", ProxyHeaders.forwardedFor(req.getAttribute(ProxyHeaders.CLIENT_ADDRESS), req.getRemoteAddr()));
        header(builder, "X-Forwarded-Proto", req.getScheme());
        header(builder, "X-Forwarded-Host", req.getHeader("Host"));
        added.forEach((name, value) -> header(builder, name, value));
        return builder.build();
    }

    private void header(HttpRequest.Builder builder, String name, String value) {
        if (value == null) {
            return;
        }
        try {
            builder.header(name, value);
        } catch (IllegalArgumentException e) {
            log.log(Level.FINE, "gate: dropped request header {0}: {1}", new Object[] {name, e.getMessage()});
        }
    }

    /** Copies status, end-to-end headers and the streamed body back; always releases the upstream. */
    private void relay(Upstream upstream, URI base, HttpResponse<InputStream> response,
            HttpServletRequest req, HttpServletResponse res) throws IOException {
        InputStream in = response.body();
        try {
            res.setStatus(response.statusCode());
            Set<String> connection = ProxyHeaders.connectionTokens(response.headers().allValues("Connection"));
            String clientOrigin = req.getScheme() + "://" + req.getHeader("Host");
            for (Map.Entry<String, List<String>> header : response.headers().map().entrySet()) {
                String name = header.getKey();
                if (!ProxyHeaders.forwardResponseHeader(name, connection)) {
                    continue;
                }
                String lower = name.toLowerCase(Locale.ROOT);
                for (String value : header.getValue()) {
                    if (lower.equals("content-length")) {
                        setContentLength(res, value);
                    } else if (lower.equals("location")) {
                        res.addHeader(name, ProxyHeaders.rewriteLocation(value, base.toString(), clientOrigin));
                    } else if (lower.equals("set-cookie") && upstream == Upstream.RUNTIME
                            && value.trim().startsWith(SessionCookie.NAME + "=")) {
                        log.log(Level.FINE, "gate: dropped an app''s attempt to set {0}", SessionCookie.NAME);
                    } else {
                        res.addHeader(name, value);
                    }
                }
            }
            copy(in, res.getOutputStream());
        } catch (IOException e) {
            log.log(Level.FINE, "gate: {0} response to {1} ended early: {2}",
                    new Object[] {upstream, req.getRequestURI(), e.toString()});
        } finally {
            in.close();
        }
    }

    private static void setContentLength(HttpServletResponse res, String value) {
        try {
            res.setContentLengthLong(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            // A malformed length is not passed on; the container chunks the body instead.
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[BUFFER_BYTES];
        int n;
        while ((n = in.read(buffer)) != -1) {
            out.write(buffer, 0, n);
            if (in.available() == 0) {
                out.flush();
            }
        }
    }

    private void unreachable(Upstream upstream, HttpServletRequest req, HttpServletResponse res, Exception e) throws IOException {
        log.log(Level.INFO, "gate: cannot reach the {0} for {1} {2}: {3}",
                new Object[] {upstream == Upstream.RUNTIME ? "runtime host" : "control plane",
                        req.getMethod(), req.getRequestURI(), e.toString()});
        Pages.send(req, res, upstream == Upstream.RUNTIME ? Page.appUnreachable() : Page.apiUnavailable());
    }
}
