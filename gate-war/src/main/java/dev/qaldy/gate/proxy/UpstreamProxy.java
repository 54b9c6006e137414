package dev.qaldy.gate.proxy;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.hooks.EdgeHooks;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.session.ConsoleCall;
import dev.qaldy.gate.session.ConsoleCookie;
import dev.qaldy.gate.session.SessionCookie;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * The gate's one forwarder: app traffic, the API, and (through {@link ControlForwarder}) webhooks and
 * app data. Forwards one request upstream and its response back through the {@link Forwarder}: bodies
 * streamed, hop-by-hop headers dropped both ways, {@code X-Forwarded-For/-Proto/-Host} set, the
 * response released in {@code finally}, a calm page when the upstream cannot be reached. API calls
 * ({@link #toControl}) tell {@link ControlPlaneHealth} how they ended and follow its rule: none is
 * made while it says failing (503 at once; its probe finds the control plane back), and those still
 * waiting for an answer when it turns failing are given up (503), so a hung or cut-off control plane
 * costs a person the time the view takes to decide, not the response timeout (issue 19: through a gate
 * cut off from the control plane a sign-in waited 30 s and more). The console's session cookie
 * reaches the control plane only as {@code Authorization: Bearer}, the runtime host never.
 */
@ApplicationScoped
public class UpstreamProxy {

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    Forwarder forwarder;

    @Inject
    ControlRelays relays;

    @Inject
    EdgeHooks edge;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    /** Bytes. */
    static final int MAX_SIGN_IN_ANSWER_BYTES = 64 * 1024;

    /** Bytes; the control plane bounds its own uploads. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.max-body-bytes", defaultValue = "10485760")
    long maxBodyBytes;

    /** How long an upstream may stay silent, ms (uploads included). */
    @Inject
    @ConfigProperty(name = "qaldy.gate.upstream-timeout-ms", defaultValue = "120000")
    long responseTimeoutMillis;

    /** Bytes. */
    @Inject
    @ConfigProperty(name = "qaldy.webhooks.max-body-bytes", defaultValue = "262144")
    long maxHookBytes;

    /** How long the control plane may take over a webhook or a data call, ms. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.control-forward-timeout-ms", defaultValue = "5000")
    long controlTimeoutMillis;

    private RequestConfig answering;
    private ControlForwarder control;
    /** API calls sent and not yet answered (their response head), given up when the view turns failing. */
    private final Set<HttpUriRequestBase> waitingOnControl = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @PostConstruct
    void start() {
        answering = Forwarder.answeringWithin(Duration.ofMillis(responseTimeoutMillis));
        controlPlane.view().onFailing(() -> waitingOnControl.forEach(HttpUriRequestBase::cancel));
        control = new ControlForwarder(config, secrets, controlPlane, forwarder, relays, edge, log, maxHookBytes,
                Duration.ofMillis(controlTimeoutMillis));
    }

    /** {@code POST /hooks/<app>/<hook>} to the control plane, or queued at the edge ({@link ControlForwarder}). */
    public void hook(HttpServletRequest req, HttpServletResponse res) throws IOException {
        control.hook(req, res);
    }

    /** {@code /.qaldy/data/…} to the control plane for a person the gate signed in and let in ({@link ControlForwarder}). */
    public void data(String app, Session session, HttpServletRequest req, HttpServletResponse res) throws IOException {
        control.data(app, session, req, res);
    }

    /**
     * App traffic to the runtime host, with {@code X-Qaldy-App}, {@code X-Qaldy-Person-Email}, the
     * gate-to-runtime credential and a {@link DataGrants data grant}; the person's Authorization and
     * session cookie stay at the gate. A public site has no {@code session} (null): static files only.
     */
    public void toRuntime(String app, Session session, HttpServletRequest req, HttpServletResponse res) throws IOException {
        ControlPlaneHealth.addServerTiming(res);
        Outgoing out = request(Upstream.RUNTIME, config.runtimeUrl(), req, res, maxBodyBytes);
        if (out == null) {
            return;
        }
        out.request().addHeader("X-Qaldy-App", app);
        if (session != null) {
            out.request().addHeader("X-Qaldy-Person-Email", session.email());
        }
        out.request().addHeader(ControlPlane.SERVICE_TOKEN_HEADER, secrets.toRuntime());
        out.request().addHeader(DataGrants.HEADER, secrets.dataGrant(app));
        forward(Upstream.RUNTIME, config.runtimeUrl(), out, req, res, maxBodyBytes, new ConsoleCall.AsSent());
    }

    /**
     * {@code /api} to the control plane, {@code console}'s cookie as Bearer; 503 at once while the
     * view says failing or {@link ControlRelays}' bound is full. The console's sign-out and a 401 to
     * its token clear the cookie; its sign-in in cookie mode gets the cookie, never the token.
     */
    public void toControl(HttpServletRequest req, HttpServletResponse res, ConsoleCall console) throws IOException {
        if (console instanceof ConsoleCall.WithCookie cookie && cookie.signOut()) {
            res.addHeader("Set-Cookie", ConsoleCookie.clear(config.secure()));
        }
        if (controlPlane.view().failing()) {
            Pages.send(req, res, Page.apiUnavailable());
            return;
        }
        try {
            relays.relay(() -> {
                Outgoing out = request(Upstream.CONTROL, config.controlUrl(), req, res, -1);
                if (out != null) {
                    if (console instanceof ConsoleCall.WithCookie cookie) {
                        out.request().addHeader("Authorization", "Bearer " + cookie.token());
                    }
                    forward(Upstream.CONTROL, config.controlUrl(), out, req, res, -1, console);
                }
            });
        } catch (BulkheadException e) {
            relays.refused(req.getMethod() + " " + req.getRequestURI());
            Pages.send(req, res, Page.apiUnavailable());
        }
    }

    private record Outgoing(ClassicHttpRequest request, BoundedInputStream body) {
    }

    /** Null when the gate has already answered (body over {@code limit}, -1 for none; a target it cannot pass on). */
    private Outgoing request(Upstream upstream, URI base, HttpServletRequest req, HttpServletResponse res, long limit)
            throws IOException {
        long declared = req.getContentLengthLong();
        if (limit >= 0 && declared > limit) {
            Pages.send(req, res, Page.tooLarge(limit));
            return null;
        }
        URI target;
        try {
            String query = req.getQueryString();
            target = URI.create(base + req.getRequestURI() + (query == null ? "" : "?" + query));
        } catch (IllegalArgumentException e) {
            Pages.send(req, res, Page.badPath());
            return null;
        }
        // An API call can be given up from another thread (HttpUriRequestBase is Cancellable); app traffic is never.
        ClassicHttpRequest request = upstream == Upstream.CONTROL ? new HttpUriRequestBase(req.getMethod(), target)
                : new BasicClassicHttpRequest(req.getMethod(), target);
        Set<String> connection = ProxyHeaders.connectionTokens(Collections.list(req.getHeaders("Connection")));
        for (Enumeration<String> names = req.getHeaderNames(); names.hasMoreElements();) {
            String name = names.nextElement();
            if (ProxyHeaders.forwardRequestHeader(name, connection, upstream)) {
                for (Enumeration<String> values = req.getHeaders(name); values.hasMoreElements();) {
                    request.addHeader(name, values.nextElement());
                }
            }
        }
        // No session cookie reaches the runtime host; the console's reaches the control plane only as Authorization.
        request.removeHeaders("Cookie");
        for (Enumeration<String> cookies = req.getHeaders("Cookie"); cookies.hasMoreElements();) {
            String cookie = ConsoleCookie.without(cookies.nextElement());
            String kept = upstream == Upstream.RUNTIME ? SessionCookie.without(cookie, SessionCookie.NAME) : cookie;
            if (kept != null) {
                request.addHeader("Cookie", kept);
            }
        }
        Forwarder.forwarded(req, request);
        BoundedInputStream body = declared > 0 || req.getHeader("Transfer-Encoding") != null ? forwarder.send(req, request, limit) : null;
        return new Outgoing(request, body);
    }

    private void forward(Upstream upstream, URI base, Outgoing out, HttpServletRequest req, HttpServletResponse res,
            long limit, ConsoleCall console) throws IOException {
        UpstreamHealth.Call call = upstream == Upstream.CONTROL ? controlPlane.view().call() : null;
        ClassicHttpResponse response;
        try {
            response = open(out.request());
        } catch (IOException e) {
            switch (Forwarder.failure(e, out.body(), call, "API proxy")) {
                case BODY_TOO_LARGE -> Pages.send(req, res, Page.tooLarge(limit));
                case BODY_TOO_SLOW -> Pages.send(req, res, Page.requestTimeout());
                case CLIENT_GONE -> log.log(Level.FINE, "gate: the client went away while sending its body: {0}", e.toString());
                case SILENT -> {
                    log.log(Level.INFO, "gate: {0} did not answer {1} {2} in time", new Object[] {upstream, req.getMethod(), req.getRequestURI()});
                    Pages.send(req, res, Page.gatewayTimeout());
                }
                case UNREACHABLE -> {
                    if (out.request() instanceof HttpUriRequestBase given && given.isCancelled()) {
                        log.log(Level.INFO, "gate: gave up {0} {1}: the control plane turned failing while it waited for an answer",
                                new Object[] {req.getMethod(), req.getRequestURI()});
                        Pages.send(req, res, Page.apiUnavailable());
                    } else {
                        unreachable(upstream, req, res, e);
                    }
                }
            }
            return;
        }
        try (response) {
            Forwarder.answered(call, response);
            if (console instanceof ConsoleCall.SignIn && response.getCode() == HttpServletResponse.SC_CREATED) {
                signInToCookie(response, req, res);
                return;
            }
            if (console instanceof ConsoleCall.WithCookie cookie && !cookie.signOut() && cookie.clearsOn(response.getCode())) {
                res.addHeader("Set-Cookie", ConsoleCookie.clear(config.secure())); // the API refused its token
            }
            relay(upstream, base, response, req, res);
        }
    }

    /**
     * The API's {@code 201 {token, expiresAt}} becomes the cookie and {@code 201 {expiresAt, session:
     * "cookie"}}; an answer the gate cannot read is 502 and nobody is signed in.
     */
    private void signInToCookie(ClassicHttpResponse response, HttpServletRequest req, HttpServletResponse res)
            throws IOException {
        String token;
        Instant expiresAt;
        try {
            HttpEntity entity = response.getEntity();
            byte[] body;
            try (InputStream in = entity == null ? InputStream.nullInputStream() : entity.getContent()) {
                body = in.readNBytes(MAX_SIGN_IN_ANSWER_BYTES + 1);
            }
            if (body.length > MAX_SIGN_IN_ANSWER_BYTES) {
                throw new JsonException("the answer is over " + MAX_SIGN_IN_ANSWER_BYTES + " bytes");
            }
            JsonObject json;
            try (JsonReader reader = Json.createReader(new StringReader(new String(body, StandardCharsets.UTF_8)))) {
                json = reader.readObject();
            }
            token = json.getString("token");
            expiresAt = Instant.parse(json.getString("expiresAt"));
        } catch (JsonException | ClassCastException | NullPointerException | DateTimeException e) {
            log.log(Level.WARNING, "gate: the control plane's answer to a console sign-in has no token and expiry: {0}", e.toString());
            Pages.send(req, res, Page.signInUnfinished());
            return;
        }
        byte[] answer = Json.createObjectBuilder().add("expiresAt", expiresAt.toString()).add("session", ConsoleCall.COOKIE_MODE)
                .build().toString().getBytes(StandardCharsets.UTF_8);
        res.setStatus(HttpServletResponse.SC_CREATED);
        res.addHeader("Set-Cookie", ConsoleCookie.set(token, Duration.between(clock.instant(), expiresAt).getSeconds(), config.secure()));
        res.setHeader("Cache-Control", "no-store");
        res.setContentType("application/json");
        res.setContentLength(answer.length);
        res.getOutputStream().write(answer);
    }

    private void relay(Upstream upstream, URI base, ClassicHttpResponse response, HttpServletRequest req, HttpServletResponse res) {
        try {
            res.setStatus(response.getCode());
            Set<String> connection = ProxyHeaders.connectionTokens(values(response.getHeaders("Connection")));
            String clientOrigin = null;
            for (Header header : response.getHeaders()) {
                String name = header.getName();
                if (!ProxyHeaders.forwardResponseHeader(name, connection)) {
                    continue;
                }
                String value = header.getValue();
                if (name.equalsIgnoreCase("Content-Length")) {
                    setContentLength(res, value);
                } else if (name.equalsIgnoreCase("Location")) {
                    if (clientOrigin == null) {
                        clientOrigin = req.getScheme() + "://" + req.getHeader("Host");
                    }
                    res.addHeader(name, ProxyHeaders.rewriteLocation(value, base.toString(), clientOrigin));
                } else if (upstream == Upstream.RUNTIME && name.equalsIgnoreCase("Set-Cookie")
                        && value.trim().startsWith(SessionCookie.NAME + "=")) {
                    log.log(Level.FINE, "gate: dropped an app''s attempt to set {0}", SessionCookie.NAME);
                } else {
                    res.addHeader(name, value);
                }
            }
            Forwarder.streamBack(response, res);
        } catch (IOException e) {
            log.log(Level.FINE, "gate: {0} response to {1} ended early: {2}",
                    new Object[] {upstream, req.getRequestURI(), e.toString()});
        }
    }

    private static List<String> values(Header[] headers) {
        List<String> values = new ArrayList<>(headers.length);
        for (Header header : headers) {
            values.add(header.getValue());
        }
        return values;
    }

    private static void setContentLength(HttpServletResponse res, String value) {
        try {
            res.setContentLengthLong(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            // A malformed length is not passed on; the container chunks the body instead.
        }
    }

    /** Opens {@code request}; an API call waits among those given up when the view turns failing. */
    private ClassicHttpResponse open(ClassicHttpRequest request) throws IOException {
        if (!(request instanceof HttpUriRequestBase call)) {
            return forwarder.open(request, answering);
        }
        waitingOnControl.add(call);
        try {
            if (controlPlane.view().failing()) {
                call.cancel(); // it turned failing since toControl looked: given up as those already waiting
            }
            return forwarder.open(request, answering);
        } finally {
            waitingOnControl.remove(call);
        }
    }

    private void unreachable(Upstream upstream, HttpServletRequest req, HttpServletResponse res, Exception e) throws IOException {
        log.log(Level.INFO, "gate: cannot reach the {0} for {1} {2}: {3}",
                new Object[] {upstream == Upstream.RUNTIME ? "runtime host" : "control plane",
                        req.getMethod(), req.getRequestURI(), e.toString()});
        Pages.send(req, res, upstream == Upstream.RUNTIME ? Page.appUnreachable() : Page.apiUnavailable());
    }
}
