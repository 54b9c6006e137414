package dev.qaldy.runtime.platform;

import dev.qaldy.contract.http.ProblemJson;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the host's own answers when it cannot serve the app: a calm HTML page for browsers
 * ({@code Accept} names {@code text/html}), RFC 9457 problem JSON for everyone else. Nothing
 * internal (stack, path on disk, upstream message) ever reaches the person.
 */
public final class ErrorPages {

    /** Problem types are {@code urn:qaldy:problem:<slug>}. */
    public static final String TYPE_PREFIX = ProblemJson.TYPE_PREFIX;

    private ErrorPages() {
    }

    /** Writes the answer for a refusal the host knows. */
    public static void write(HttpServletResponse response, ServingException problem, String accept,
            long retryAfterSeconds) throws IOException {
        if (problem.status() == 503 && retryAfterSeconds > 0) {
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
        }
        write(response, problem.status(), problem.type(), problem.title(), problem.detail(), accept);
    }

    /** Writes an answer with the given status, problem type slug, title and one-sentence detail. */
    public static void write(HttpServletResponse response, int status, String type, String title, String detail,
            String accept) throws IOException {
        write(response, status, type, title, detail, accept, null, null);
    }

    /** As above, with a link under the sentence on the HTML page ({@code linkHref} null: none), e.g. home. */
    public static void write(HttpServletResponse response, int status, String type, String title, String detail,
            String accept, String linkHref, String linkText) throws IOException {
        if (!wantsHtml(accept)) {
            ProblemJson.write(response, status, type, title, detail, false);
            return;
        }
        byte[] body = page(title, detail, linkHref, linkText).getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/html; charset=utf-8");
        response.setStatus(status);
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentLength(body.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(body);
        }
    }

    /** True when a browser asks for a page rather than data. */
    public static boolean wantsHtml(String accept) {
        return accept != null && accept.contains("text/html");
    }

    static String page(String title, String detail) {
        return page(title, detail, null, null);
    }

    static String page(String title, String detail, String linkHref, String linkText) {
        String link = linkHref == null ? ""
                : "<p class=\"l\"><a href=\"" + escape(linkHref) + "\">" + escape(linkText == null ? linkHref : linkText) + "</a></p>";
        return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + escape(title) + "</title><style>"
                + "body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f6f7f9;"
                + "color:#1f2933;font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif}"
                + "main{max-width:32rem;padding:2rem;text-align:center}"
                + "h1{font-size:1.5rem;margin:0 0 .5rem}p{margin:0;color:#52606d}p.l{margin-top:1rem}a{color:#0b5cad}"
                + "</style></head><body><main><h1>" + escape(title) + "</h1><p>" + escape(detail)
                + "</p>" + link + "</main></body></html>\n";
    }

    /** HTML-escapes text for element content and attribute values. */
    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
