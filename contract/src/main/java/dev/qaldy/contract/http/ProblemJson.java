package dev.qaldy.contract.http;

import jakarta.json.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * RFC 9457 problem JSON as the cell speaks it: the one writer of the gate's and the runtime host's
 * own problem answers, and how to tell an answer of the control plane's API from the server in front
 * of it (the API answers every 4xx with problem JSON; a 4xx without it, e.g. the server's own 404
 * while the application is not deployed yet, is a control-plane failure like a 5xx, never "no such app").
 */
public final class ProblemJson {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** Problem types are {@code urn:qaldy:problem:<slug>}. */
    public static final String TYPE_PREFIX = "urn:qaldy:problem:";

    private ProblemJson() {
    }

    /** {@code contentType} is a Content-Type value, parameters allowed; null for none. */
    public static boolean is(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return type.equals(MEDIA_TYPE);
    }

    /** A 1xx–3xx, or a 4xx with problem JSON. */
    public static boolean fromTheApi(int status, String contentType) {
        return status < 400 || is(contentType);
    }

    /** {@code {"type":"urn:qaldy:problem:<slug>","title","status","detail"}}. */
    public static String body(int status, String slug, String title, String detail) {
        return Json.createObjectBuilder()
                .add("type", TYPE_PREFIX + slug)
                .add("title", title)
                .add("status", status)
                .add("detail", detail)
                .build().toString();
    }

    /**
     * Writes the whole answer: {@code status}, {@value #MEDIA_TYPE}, {@code Cache-Control: no-store},
     * {@code X-Content-Type-Options: nosniff}, its length and, unless {@code head}, the {@link #body}.
     * Other headers ({@code Retry-After}, the gate's security headers) are the caller's, set before.
     */
    public static void write(HttpServletResponse res, int status, String slug, String title, String detail, boolean head)
            throws IOException {
        byte[] body = body(status, slug, title, detail).getBytes(StandardCharsets.UTF_8);
        res.setStatus(status);
        res.setContentType(MEDIA_TYPE);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setContentLength(body.length);
        if (!head) {
            try (OutputStream out = res.getOutputStream()) {
                out.write(body);
            }
        }
    }
}
