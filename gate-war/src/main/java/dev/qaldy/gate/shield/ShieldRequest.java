package dev.qaldy.gate.shield;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
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
        for (String name : Collections.list(req.getHeaderNames())) {
            for (String value : Collections.list(req.getHeaders(name))) {
                count++;
                bytes += name.length() + (value == null ? 0 : value.length());
            }
        }
        List<String> forwarded = Collections.list(req.getHeaders("X-Forwarded-For"));
        return new ShieldRequest(req.getMethod(), uri, target, count, bytes, req.getHeader("User-Agent"),
                req.getRemoteAddr(), forwarded);
    }
}
