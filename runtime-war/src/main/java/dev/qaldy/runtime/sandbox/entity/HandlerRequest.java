package dev.qaldy.runtime.sandbox.entity;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The request a handler sees as {@code req}: method, decoded path, query (first value per name),
 * headers (lower-case names), the body as text, and the person's email (null when unknown).
 * It never carries the cell's secrets: the service token, {@code Authorization} and the
 * {@code qaldy_session} cookie are taken out here.
 */
public record HandlerRequest(String method, String path, Map<String, String> query, Map<String, String> headers,
        String body, String person) {

    /** Headers a handler never sees. */
    static final Set<String> HIDDEN = Set.of("x-qaldy-service-token", "x-qaldy-data-grant", "authorization", "proxy-authorization");
    static final String SESSION_COOKIE = "qaldy_session";

    public HandlerRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        query = Map.copyOf(query);
        headers = visible(headers);
        body = body == null ? "" : body;
    }

    /** Content type without parameters, lower case; empty when absent. */
    public String mediaType() {
        String type = headers.getOrDefault("content-type", "");
        int semicolon = type.indexOf(';');
        return (semicolon < 0 ? type : type.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    /** True for {@code application/json} and {@code application/*+json}. */
    public boolean isJson() {
        String type = mediaType();
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    private static Map<String, String> visible(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (HIDDEN.contains(lower) || value == null) {
                return;
            }
            if (lower.equals("cookie")) {
                value = withoutSessionCookie(value);
                if (value.isEmpty()) {
                    return;
                }
            }
            out.merge(lower, value, (a, b) -> a + ", " + b);
        });
        return Map.copyOf(out);
    }

    static String withoutSessionCookie(String cookieHeader) {
        return Arrays.stream(cookieHeader.split(";"))
                .map(String::strip)
                .filter(pair -> !pair.isEmpty() && !pair.startsWith(SESSION_COOKIE + "="))
                .collect(Collectors.joining("; "));
    }
}
