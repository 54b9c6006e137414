package dev.qaldy.gate.shield;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * What the shield reads of a request, taken once so the rules are plain code.
 *
 * @param path         as received, not decoded
 * @param targetLength characters of path plus {@code ?query}
 * @param headerBytes  characters of all header names and values
 * @param userAgent    the first value, or null
 */
public record ShieldRequest(String method, String path, int targetLength, int headerCount, long headerBytes, String userAgent,
        String peer, List<String> forwardedFor) {

    public ShieldRequest {
        forwardedFor = forwardedFor == null ? List.of() : List.copyOf(forwardedFor);
    }

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

    /** No list made for none (the usual case). */
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
