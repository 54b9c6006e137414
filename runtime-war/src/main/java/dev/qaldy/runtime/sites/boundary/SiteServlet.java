package dev.qaldy.runtime.sites.boundary;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.bundles.control.AppCode;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.Sourced;
import dev.qaldy.runtime.cap.AsleepException;
import dev.qaldy.runtime.cap.RunCap;
import dev.qaldy.runtime.platform.BadRequestException;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ErrorPages;
import dev.qaldy.runtime.platform.ServiceRefusal;
import dev.qaldy.runtime.platform.ServingException;
import dev.qaldy.runtime.sandbox.boundary.CodeServlet;
import dev.qaldy.runtime.sandbox.control.DataUnavailableException;
import dev.qaldy.runtime.sandbox.control.JsonDepth;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.sites.control.ByteRanges;
import dev.qaldy.runtime.sites.control.NotServedHereException;
import dev.qaldy.runtime.sites.control.RequestPaths;
import dev.qaldy.runtime.sites.control.ServedFiles;
import dev.qaldy.runtime.sites.control.StaticFiles;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The runtime host's front door for every request the gate forwards: service token → app → path →
 * live version and bundle ({@link AppCode}) → a handler ({@code /api/…}, only for a person the gate
 * named and under the spending cap: {@link RunCap}) or a static file. {@code X-Qaldy-Code} tells
 * where the code came from. While the control plane cannot be asked, a static file is answered only
 * if this data centre served it before (seed). {@code Server-Timing: runtime-control;dur=<ms>;desc="<n> calls"}
 * tells what this request waited on the control plane. Mapped to {@code /} (the default servlet), so
 * the server's own endpoints such as {@code /health} keep their mappings.
 */
// "*.jsp" and "*.jspx" too: else the server's JSP servlet would answer those paths past the token check.
@WebServlet(name = "site", urlPatterns = {"/", "*.jsp", "*.jspx"})
public class SiteServlet extends CodeServlet {

    private static final long serialVersionUID = 1L;
    public static final String TOKEN_HEADER = ServiceDirection.HEADER;
    public static final String APP_HEADER = "X-Qaldy-App";
    public static final String PERSON_HEADER = "X-Qaldy-Person-Email";
    public static final String CODE_HEADER = "X-Qaldy-Code";
    /** The {@code Server-Timing} metric of one request's calls to the control plane made by this host. */
    public static final String TIMING_METRIC = "runtime-control";
    /** Largest request body a handler gets, in bytes. */
    static final int MAX_REQUEST_BYTES = 1024 * 1024;
    static final int MAX_QUERY_PARAMETERS = 200;

    @Inject
    transient ServedFiles servedFiles;

    public SiteServlet() {
    }

    /** As CDI wires it, with the default JSON depth; for tests. */
    public SiteServlet(CellCredentials credentials, AppCode appCode, ServedFiles servedFiles, Sandbox sandbox,
            RunCap cap, Logger log, Duration retryAfter) {
        super(credentials, appCode, sandbox, cap, log, retryAfter, JsonDepth.DEFAULT_MAX);
        this.servedFiles = servedFiles;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String accept = request.getHeader("Accept");
        try (UpstreamHealth.Ledger ledger = UpstreamHealth.Ledger.open()) {
            credentials.requireReady();
            if (!ServiceRefusal.admitted(credentials.check(request.getHeader(TOKEN_HEADER), ServiceDirection.GATE_TO_RUNTIME),
                    request, response, credentials, "a request")) {
                return;
            }
            String app = app(request);
            String path = RequestPaths.decode(rawPath(request));
            // Server code runs for a person the gate named; a public site's visitor (no person) gets static files only.
            boolean api = person(request) != null && (path.startsWith("/api/") || path.equals("/api"));
            if (!api && !isGetOrHead(request)) {
                response.setHeader("Allow", "GET, HEAD");
                ErrorPages.write(response, 405, "method-not-allowed", "Method not allowed",
                        "Static files answer GET and HEAD only.", accept);
                return;
            }
            Sourced<Bundle> code = appCode.current(app);
            response.setHeader(CODE_HEADER, code.source().header());
            if (api) {
                handle(request, response, code.value(), path);
            } else {
                cap.prepare(app); // static files are the gate's to cap; this readies the cap for server code
                timing(response);
                serveFile(request, response, code, path);
            }
        } catch (ServingException e) {
            // 503s are expected while the control plane is down; LiveVersions logs that state change once.
            log.log(e.status() >= 500 && e.status() != 503 ? Level.WARNING : Level.FINE, "{0} {1}: {2} ({3})",
                    new Object[] {request.getMethod(), request.getRequestURI(), e.status(), e.getMessage()});
            timing(response);
            ErrorPages.write(response, e, accept,
                    e instanceof AsleepException asleep ? asleep.retryAfterSeconds() : retryAfter.toSeconds());
        } catch (RuntimeException e) {
            String id = UUID.randomUUID().toString();
            log.log(Level.SEVERE, "Unexpected failure " + id + " for " + request.getMethod() + " "
                    + request.getRequestURI(), e);
            ErrorPages.write(response, 500, "internal", "Something went wrong",
                    "This app could not answer because of an error on Qaldy's side. Please try again, and quote reference "
                            + id.substring(0, 8) + " if it happens again.", accept);
        }
    }

    /** Names this request's waits on the control plane (set once, before the answer is written). */
    private static void timing(HttpServletResponse response) {
        if (!response.isCommitted() && !response.containsHeader("Server-Timing")) {
            UpstreamHealth.Ledger.current().ifPresent(l -> response.setHeader("Server-Timing", l.serverTiming(TIMING_METRIC)));
        }
    }

    /** The app the gate routed this request to: a DNS label. */
    static String app(HttpServletRequest request) {
        String app = request.getHeader(APP_HEADER);
        if (app == null) {
            throw new BadRequestException("The request names no app.");
        }
        app = app.toLowerCase(Locale.ROOT);
        if (!AppLabel.valid(app)) {
            throw new BadRequestException("This address does not name an app. Check the link you followed.");
        }
        return app;
    }

    private static String rawPath(HttpServletRequest request) {
        String uri = request.getRequestURI();
        String context = request.getContextPath();
        return context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
    }

    private static boolean isGetOrHead(HttpServletRequest request) {
        return "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
    }

    private void serveFile(HttpServletRequest request, HttpServletResponse response, Sourced<Bundle> code,
            String path) throws IOException {
        Bundle bundle = code.value();
        StaticFiles.Answer answer = StaticFiles.resolve(bundle, path, request.getHeader("If-None-Match"));
        if (code.source().outage()) {
            // Seed: a file this data centre never served before needs the API.
            String file = answer.bundlePath();
            if (file == null || !servedFiles.served(bundle.key(), file)) {
                throw new NotServedHereException("never served " + path + " of " + bundle.key()
                        + ", and the control plane cannot be asked");
            }
        } else if (answer instanceof StaticFiles.Found || answer instanceof StaticFiles.NotModified) {
            servedFiles.record(bundle.key(), answer.bundlePath());
        }
        if (answer instanceof StaticFiles.Found found) {
            sendFile(request, response, found);
        } else if (answer instanceof StaticFiles.NotModified notModified) {
            response.setStatus(304);
            response.setHeader("ETag", notModified.etag());
            response.setHeader("Cache-Control", "no-cache");
        } else if (answer instanceof StaticFiles.AddSlash addSlash) {
            String query = request.getQueryString();
            response.setStatus(301);
            response.setHeader("Location", addSlash.location() + (query == null ? "" : "?" + query));
        } else {
            ErrorPages.write(response, 404, "not-found", "Page not found",
                    "There is no page at this address. Check the link, or start again from the app's home page.",
                    request.getHeader("Accept"), "/", "Go to the app's home page");
        }
    }

    /** 200 with the whole file, or 206 with one range of it (GET only), or 416. HEAD sends no body. */
    private static void sendFile(HttpServletRequest request, HttpServletResponse response, StaticFiles.Found found)
            throws IOException {
        BundleFile file = found.file();
        response.setHeader("ETag", file.etag());
        // Revalidate every time: the live version behind a URL can change; a 304 costs nothing.
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Accept-Ranges", "bytes");
        boolean get = "GET".equals(request.getMethod());
        // RFC 9110: range handling is defined for GET only, and If-Range must name the current file.
        ByteRanges.Range range = get && ifRangeHolds(request.getHeader("If-Range"), file.etag())
                ? ByteRanges.of(request.getHeader("Range"), file.size())
                : new ByteRanges.Whole();
        if (range instanceof ByteRanges.Unsatisfiable unsatisfiable) {
            response.setHeader("Content-Range", unsatisfiable.contentRange(file.size()));
            ErrorPages.write(response, 416, "range-not-satisfiable", "Range not satisfiable",
                    "The requested range is not within this file.", request.getHeader("Accept"));
            return;
        }
        response.setContentType(found.contentType());
        if (range instanceof ByteRanges.Part part) {
            response.setStatus(206);
            response.setHeader("Content-Range", part.contentRange(file.size()));
            response.setContentLength((int) part.length());
            try (OutputStream out = response.getOutputStream()) {
                file.writeTo(out, (int) part.first(), (int) part.length());
            }
            return;
        }
        response.setStatus(200);
        response.setContentLength(file.size());
        if (get) {
            try (OutputStream out = response.getOutputStream()) {
                file.writeTo(out);
            }
        }
    }

    /** No {@code If-Range}, or one naming the current entity tag (strong comparison); a date never holds (no Last-Modified). */
    static boolean ifRangeHolds(String ifRange, String etag) {
        return ifRange == null || ifRange.strip().equals(etag);
    }

    private void handle(HttpServletRequest request, HttpServletResponse response, Bundle bundle, String path)
            throws IOException {
        String app = bundle.key().app();
        long account = cap.requireAwake(app); // over the cap, server code does not run: 503 asleep
        if (request.getContentLengthLong() > MAX_REQUEST_BYTES) {
            tooLarge(response);
            return;
        }
        byte[] body = readBounded(request.getInputStream());
        if (body == null) {
            tooLarge(response);
            return;
        }
        HandlerRequest call = new HandlerRequest(request.getMethod(), path, query(request.getQueryString()),
                headers(request), new String(body, StandardCharsets.UTF_8), person(request));
        if (call.isJson() && JsonDepth.exceeds(call.body(), maxJsonDepth)) {
            // the platform parses req.json before the app's code runs: the sender's mistake, not the app's error
            ErrorPages.write(response, 400, "json-too-deep", "Request body nested too deeply",
                    "The request body is nested too deeply: JSON deeper than " + maxJsonDepth
                            + " levels of arrays and objects is refused before the app's code runs.", request.getHeader("Accept"));
            return;
        }
        long cpuStart = RunCap.cpuNow();
        HandlerOutcome outcome;
        try {
            outcome = sandbox.handle(bundle, call, request.getHeader(DataGrants.HEADER));
        } finally {
            cap.ran(app, account, RunCap.cpuMillisSince(cpuStart));
        }
        timing(response); // the handler's data calls included
        String accept = request.getHeader("Accept");
        if (outcome instanceof HandlerOutcome.Answered answered) {
            response.setStatus(answered.status());
            boolean nosniff = false;
            for (HandlerOutcome.Header header : answered.headers()) {
                response.addHeader(header.name(), header.value());
                nosniff |= header.name().equalsIgnoreCase("X-Content-Type-Options");
            }
            if (!nosniff) {
                response.setHeader("X-Content-Type-Options", "nosniff");
            }
            response.setContentLength(answered.body().length);
            if (answered.body().length > 0) {
                try (OutputStream out = response.getOutputStream()) {
                    out.write(answered.body());
                }
            }
        } else if (outcome instanceof HandlerOutcome.NoHandler) {
            ErrorPages.write(response, 404, "no-handler", "No handler",
                    "This app has no handler for " + call.method() + " " + call.path() + ".", null);
        } else if (outcome instanceof HandlerOutcome.DataUnavailable unavailable) {
            throw new DataUnavailableException(unavailable.reason()); // 503 with Retry-After, like any outage
        } else if (outcome instanceof HandlerOutcome.TimedOut) {
            ErrorPages.write(response, 504, "handler-timeout", "This app took too long",
                    "The app's server code used up its time for this request.", accept);
        } else {
            ErrorPages.write(response, 500, "handler-error", "This app hit an error",
                    "The app's server code failed while answering this request.", accept);
        }
    }

    private static void tooLarge(HttpServletResponse response) throws IOException {
        ErrorPages.write(response, 413, "too-large", "Request too large",
                "Requests to an app's handlers carry at most 1 MiB.", null);
    }

    /** The body, or null when it is over {@link #MAX_REQUEST_BYTES}. */
    static byte[] readBounded(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            if (out.size() + n > MAX_REQUEST_BYTES) {
                return null;
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** First value per name; {@code +} is a space, as in forms. */
    static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        String[] pairs = raw.split("&");
        if (pairs.length > MAX_QUERY_PARAMETERS) {
            throw new BadRequestException("The query has too many parameters.");
        }
        try {
            for (String pair : pairs) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.putIfAbsent(name, value);
            }
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("The query is not valid percent-encoding.");
        }
        return query;
    }

    private static Map<String, String> headers(HttpServletRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name, String.join(", ", Collections.list(request.getHeaders(name))));
        }
        return headers;
    }

    private static String person(HttpServletRequest request) {
        String email = request.getHeader(PERSON_HEADER);
        return email == null || email.isBlank() || email.length() > 320 ? null : email.strip();
    }
}
