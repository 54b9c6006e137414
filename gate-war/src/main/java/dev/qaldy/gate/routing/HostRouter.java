package dev.qaldy.gate.routing;

import dev.qaldy.contract.apps.AppLabel;
import java.util.Locale;

/**
 * Maps a Host header to a {@link HostRoute}, strictly: only {@code <public host>[:port]} and
 * {@code <label>.<base domain>[:port]} with one DNS label, so a request never reaches the runtime host
 * for the wrong app. Per request, so loops, no regular expressions (issue 15).
 */
public final class HostRouter {

    private static final int MAX_HOST_LENGTH = 253 + 6;
    private static final int MAX_PORT_DIGITS = 5;

    private final String publicHost;
    private final String appSuffix;

    public HostRouter(String publicHost, String baseDomain) {
        this.publicHost = publicHost.toLowerCase(Locale.ROOT);
        this.appSuffix = "." + baseDomain.toLowerCase(Locale.ROOT);
    }

    public HostRoute route(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return new HostRoute.Bad("no Host header");
        }
        if (hostHeader.length() > MAX_HOST_LENGTH) {
            return new HostRoute.Bad("Host header too long");
        }
        String host = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            return new HostRoute.Bad("IP literal");
        }
        int colon = host.indexOf(':');
        if (colon >= 0) {
            String port = host.substring(colon + 1);
            if (!port(port)) {
                return new HostRoute.Bad("bad port");
            }
            host = host.substring(0, colon);
        }
        if (host.isEmpty() || !nameChars(host)) {
            return new HostRoute.Bad("bad characters");
        }
        if (host.equals(publicHost)) {
            return new HostRoute.Public();
        }
        if (host.endsWith(appSuffix)) {
            String label = host.substring(0, host.length() - appSuffix.length());
            if (AppLabel.valid(label)) {
                return new HostRoute.App(label);
            }
            return new HostRoute.Bad("not a single DNS label before the base domain");
        }
        return new HostRoute.Bad("not this cell's domain");
    }

    /** 1–5 digits, at most 65535. */
    static boolean port(String port) {
        if (port.isEmpty() || port.length() > MAX_PORT_DIGITS) {
            return false;
        }
        for (int i = 0; i < port.length(); i++) {
            char c = port.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return Integer.parseInt(port) <= 65535;
    }

    /** The host is already lower case. */
    static boolean nameChars(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
