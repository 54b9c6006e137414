package dev.qaldy.gate.proxy;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which headers cross the gate. Hop-by-hop headers (RFC 9110 §7.6.1) and those named in
 * {@code Connection} stop at the gate in both directions; headers the gate sets itself
 * ({@code X-Forwarded-*}, {@code X-Qaldy-*}) are never taken from the client.
 */
public final class ProxyHeaders {

    /**
     * Request attribute: the client's address as the shield resolved it (the TCP peer, or behind a
     * trusted proxy the address that proxy saw), sent upstream as {@code X-Forwarded-For}.
     */
    public static final String CLIENT_ADDRESS = "dev.qaldy.gate.client-address";

    /** Hop-by-hop headers, lower case; any {@code Proxy-*} header counts too. */
    static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "te", "trailer",
            "transfer-encoding", "upgrade");

    private ProxyHeaders() {
    }

    /** The header names listed in {@code Connection} header values, lower case. */
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

    /** True for a hop-by-hop header: the fixed list, {@code Proxy-*}, or one named in {@code Connection}. */
    public static boolean isHopByHop(String name, Set<String> connectionTokens) {
        String n = name.toLowerCase(Locale.ROOT);
        return HOP_BY_HOP.contains(n) || n.startsWith("proxy-") || connectionTokens.contains(n);
    }

    /**
     * True when a client's request header is copied to {@code upstream} as it is. The session
     * cookie and Authorization never reach the runtime host (the gate rewrites {@code Cookie}
     * itself for it); Host, Content-Length and Expect are the HTTP client's own business.
     */
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
            default -> {
                return !n.startsWith("x-forwarded-") && !n.startsWith("x-qaldy-");
            }
        }
    }

    /**
     * True when an upstream's response header is copied back to the client: end-to-end headers
     * except {@code Server} (the gate's server names itself; upstream software stays private),
     * {@code X-Qaldy-Access} and {@code X-Qaldy-Shield} (only the gate says how access was decided
     * and what its shield refused).
     */
    public static boolean forwardResponseHeader(String name, Set<String> connectionTokens) {
        return !name.startsWith(":") && !isHopByHop(name, connectionTokens) && !"server".equalsIgnoreCase(name)
                && !"x-qaldy-access".equalsIgnoreCase(name) && !"x-qaldy-shield".equalsIgnoreCase(name);
    }

    /**
     * The {@code X-Forwarded-For} value sent upstream: the client's address as the shield resolved
     * it ({@link #CLIENT_ADDRESS}), else the TCP peer. Never what the client wrote itself.
     */
    public static String forwardedFor(Object resolvedClient, String peer) {
        return resolvedClient instanceof String client && !client.isEmpty() ? client : peer;
    }

    /**
     * A {@code Location} pointing at the upstream itself, rewritten to the origin the client used;
     * any other value unchanged.
     *
     * @param upstreamBase e.g. {@code http://127.0.0.1:8082} (no trailing slash)
     * @param clientOrigin e.g. {@code http://guestbook.localhost:8080}
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
