package dev.qaldy.gate.proxy;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which headers cross the gate: hop-by-hop ones (RFC 9110 §7.6.1) and those named in
 * {@code Connection} stop both ways; those the gate sets ({@code X-Forwarded-*}, {@code X-Qaldy-*})
 * are never taken from the client.
 */
public final class ProxyHeaders {

    /** Request attribute: the client's address as the shield resolved it, sent as {@code X-Forwarded-For}. */
    public static final String CLIENT_ADDRESS = "dev.qaldy.gate.client-address";

    /** Lower case; any {@code Proxy-*} header counts too. */
    static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "te", "trailer",
            "transfer-encoding", "upgrade");

    private ProxyHeaders() {
    }

    /** Lower case. */
    public static Set<String> connectionTokens(Iterable<String> connectionValues) {
        Set<String> tokens = new HashSet<>();
        if (connectionValues == null) {
            return tokens;
        }
        for (String value : connectionValues) {
            if (value == null) {
                continue;
            }
            for (String token : value.split(",")) {
                String t = token.trim().toLowerCase(Locale.ROOT);
                if (!t.isEmpty()) {
                    tokens.add(t);
                }
            }
        }
        return tokens;
    }

    public static boolean isHopByHop(String name, Set<String> connectionTokens) {
        String n = name.toLowerCase(Locale.ROOT);
        return HOP_BY_HOP.contains(n) || n.startsWith("proxy-") || connectionTokens.contains(n);
    }

    /** Authorization and Cookie go to the control plane only; Host, Content-Length and Expect are the HTTP client's. */
    public static boolean forwardRequestHeader(String name, Set<String> connectionTokens, Upstream upstream) {
        String n = name.toLowerCase(Locale.ROOT);
        if (isHopByHop(n, connectionTokens) || n.startsWith(":")) {
            return false;
        }
        switch (n) {
            case "host", "content-length", "expect", "forwarded", "x-real-ip" -> {
                return false;
            }
            case "authorization", "cookie" -> {
                return upstream == Upstream.CONTROL;
            }
            case "x-qaldy-data-bookmark" -> {
                return true; // the reader's own freshness floor (issue 18): it can only make an answer newer or a 503
            }
            default -> {
                return !n.startsWith("x-forwarded-") && !n.startsWith("x-qaldy-");
            }
        }
    }

    /** Not {@code Server} (upstream software stays private) nor {@code X-Qaldy-Access}/{@code -Shield} (only the gate says those). */
    public static boolean forwardResponseHeader(String name, Set<String> connectionTokens) {
        return !name.startsWith(":") && !isHopByHop(name, connectionTokens) && !"server".equalsIgnoreCase(name)
                && !"x-qaldy-access".equalsIgnoreCase(name) && !"x-qaldy-shield".equalsIgnoreCase(name);
    }

    /** The shield's resolved address ({@link #CLIENT_ADDRESS}), else the TCP peer; never what the client wrote. */
    public static String forwardedFor(Object resolvedClient, String peer) {
        return resolvedClient instanceof String client && !client.isEmpty() ? client : peer;
    }

    /**
     * A {@code Location} at the upstream itself, rewritten to the client's origin; others unchanged.
     *
     * @param upstreamBase e.g. {@code http://127.0.0.1:8082} (no trailing slash)
     */
    public static String rewriteLocation(String location, String upstreamBase, String clientOrigin) {
        if (location == null || !location.regionMatches(true, 0, upstreamBase, 0, upstreamBase.length())) {
            return location;
        }
        String rest = location.substring(upstreamBase.length());
        if (rest.isEmpty() || rest.startsWith("/") || rest.startsWith("?") || rest.startsWith("#")) {
            return clientOrigin + rest;
        }
        return location;
    }
}
