package dev.qaldy.gate.platform;

import dev.qaldy.contract.http.ProblemJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Writes the gate's own pages: small calm HTML for browsers ({@code Accept} has {@code text/html}),
 * RFC 9457 problem JSON for everyone else, always with security headers and never cached.
 */
public final class Pages {

    /** Problem types are {@code urn:qaldy:problem:<slug>}. */
    public static final String TYPE_PREFIX = ProblemJson.TYPE_PREFIX;

    private static final String STYLE = "body{margin:0;min-height:100vh;display:flex;align-items:center;"
            + "justify-content:center;background:#f5f6f8;color:#1f2328;"
            + "font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}"
            + "main{max-width:32rem;margin:1rem;padding:2rem 2.25rem;background:#fff;"
            + "border:1px solid #e2e5e9;border-radius:12px}"
            + "h1{font-size:1.3rem;margin:0 0 .5rem}p{margin:.5rem 0 0;color:#464c53}"
            + "a{color:#0b5cad}.s{margin-top:1.5rem;font-size:.8rem;color:#8a9099}";

    private Pages() {
    }

    /** True when the client is a browser that asked for HTML. */
    public static boolean wantsHtml(HttpServletRequest req) {
        String accept = req.getHeader("Accept");
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html");
    }

    /** Sends {@code page}, as HTML or problem JSON depending on the request. */
    public static void send(HttpServletRequest req, HttpServletResponse res, Page page) throws IOException {
        if (res.isCommitted()) {
            return;
        }
        res.resetBuffer();
        res.setStatus(page.status());
        securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        ControlPlaneHealth.addServerTiming(res);
        if (page.status() == 503 && !res.containsHeader("Retry-After")) { // a page may know better (asleep: the next period)
            res.setHeader("Retry-After", Integer.toString(Page.RETRY_AFTER_SECONDS));
        }
        if (page.status() == 401) {
            res.setHeader("WWW-Authenticate", "Bearer realm=\"qaldy\"");
        }
        boolean head = "HEAD".equals(req.getMethod());
        if (!wantsHtml(req)) {
            ProblemJson.write(res, page.status(), page.type(), page.title(), page.sentence(), head);
            return;
        }
        byte[] body = html(page).getBytes(StandardCharsets.UTF_8);
        res.setContentType("text/html;charset=UTF-8");
        res.setContentLength(body.length);
        if (!head) {
            try (OutputStream out = res.getOutputStream()) {
                out.write(body);
            }
        }
    }

    /** Headers every response the gate writes itself carries. */
    public static void securityHeaders(HttpServletResponse res) {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Referrer-Policy", "no-referrer");
        res.setHeader("X-Frame-Options", "DENY");
        res.setHeader("Content-Security-Policy",
                "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    }

    /** The HTML page: a title, one sentence, an optional link; escaped, with its own tiny CSS. */
    public static String html(Page page) {
        StringBuilder html = new StringBuilder(1024)
                .append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
                .append("<title>").append(escape(page.title())).append(" · Qaldy</title>")
                .append("<style>").append(STYLE).append("</style></head><body><main>")
                .append("<h1>").append(escape(page.title())).append("</h1>")
                .append("<p>").append(escape(page.sentence())).append("</p>");
        if (page.linkHref() != null) {
            html.append("<p><a href=\"").append(escape(page.linkHref())).append("\">")
                    .append(escape(page.linkText() == null ? page.linkHref() : page.linkText())).append("</a></p>");
        }
        return html.append("<p class=\"s\">").append(page.status()).append(" · Qaldy gate</p>")
                .append("</main></body></html>\n").toString();
    }

    /**
     * Problem JSON for programs (webhook senders, data clients) whatever they accept, {@code no-store},
     * with {@code Retry-After} on a 503; nothing once the answer is committed.
     */
    public static void sendProblem(HttpServletResponse res, Page page) throws IOException {
        if (res.isCommitted()) {
            return;
        }
        res.resetBuffer();
        securityHeaders(res);
        if (page.status() == 503 && !res.containsHeader("Retry-After")) {
            res.setHeader("Retry-After", Integer.toString(Page.RETRY_AFTER_SECONDS));
        }
        ProblemJson.write(res, page.status(), page.type(), page.title(), page.sentence(), false);
    }

    /** The RFC 9457 body ({@link ProblemJson#body}). */
    public static String problemJson(Page page) {
        return ProblemJson.body(page.status(), page.type(), page.title(), page.sentence());
    }

    /** Escapes text for HTML element content and double-quoted attributes. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
