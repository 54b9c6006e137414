package dev.qaldy.gate.shield;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * What the shield reads of a request, taken from the servlet request once so the rules are plain
 * code.
 *
 * @param method        the HTTP method
 * @param path          the request path as received (not decoded)
 * @param targetLength  characters of the request target: path plus {@code ?query}
 * @param headerCount   header lines
 * @param headerBytes   characters of all header names and values
 * @param userAgent     the first {@code User-Agent} value, or null
 * @param peer          the TCP peer's address ({@code getRemoteAddr()})
 * @param forwardedFor  every {@code X-Forwarded-For} value, in order
 */
public record ShieldRequest(String method, String path, int targetLength, int headerCount, long headerBytes, String userAgent,
        String peer, List<String> forwardedFor) {

    public ShieldRequest {
        forwardedFor = forwardedFor == null ? List.of() : List.copyOf(forwardedFor);
    }

    /** Reads one servlet request. */
    public static ShieldRequest of(HttpServletRequest req) {
        String uri = req.getRequestURI();
        String query = req.getQueryString();
        int target = (uri == null ? 0 : uri.length()) + (query == null ? 0 : query.length() + 1);
        int count = 0;
        long bytes = 0;
        for (Enumeration<String> names = req.getHeaderNames(); names.hasMoreElements();) {
            String name = names.nextElement();
            for (Enumeration<String> values = req.getHeaders(name); values.hasMoreElements();) {
                String value = values.nextElement();
                count++;
                bytes += name.length() + (value == null ? 0 : value.length());
            }
        }
        return new ShieldRequest(req.getMethod(), uri, target, count, bytes, req.getHeader("User-Agent"),
                req.getRemoteAddr(), values(req.getHeaders("X-Forwarded-For")));
    }

    /** The values, in order; no list made for none (the usual case). */
    private static List<String> values(Enumeration<String> values) {
        if (!values.hasMoreElements()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(2);
        while (values.hasMoreElements()) {
            out.add(values.nextElement());
        }
        return out;
    }
}
