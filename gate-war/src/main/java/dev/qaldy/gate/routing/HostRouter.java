package dev.qaldy.gate.routing;

import dev.qaldy.contract.apps.AppLabel;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Maps a Host header to a {@link HostRoute}. Strict on purpose: only {@code <public host>[:port]}
 * and {@code <label>.<base domain>[:port]} with a single DNS label are served; trailing dots,
 * nested subdomains, user-info, IP literals and unknown domains are {@link HostRoute.Bad}, so a
 * request can never reach the runtime host for the wrong app.
 */
public final class HostRouter {

    /** A DNS label as app names are: 1–63 of a-z, 0-9 and '-', not starting or ending with '-'. */
    static final Pattern LABEL = AppLabel.PATTERN;
    private static final Pattern NAME_CHARS = Pattern.compile("[a-z0-9.-]+");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
    private static final int MAX_HOST_LENGTH = 253 + 6;

    private final String publicHost;
    private final String appSuffix;

    /**
     * @param publicHost host name of the public origin (e.g. {@code localhost})
     * @param baseDomain apps live at {@code <app>.<baseDomain>} (e.g. {@code localhost})
     */
    public HostRouter(String publicHost, String baseDomain) {
        this.publicHost = publicHost.toLowerCase(Locale.ROOT);
        this.appSuffix = "." + baseDomain.toLowerCase(Locale.ROOT);
    }

    /** Routes one Host header value (null or blank is {@link HostRoute.Bad}). */
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
            if (!PORT.matcher(port).matches() || Integer.parseInt(port) > 65535) {
                return new HostRoute.Bad("bad port");
            }
            host = host.substring(0, colon);
        }
        if (host.isEmpty() || !NAME_CHARS.matcher(host).matches()) {
            return new HostRoute.Bad("bad characters");
        }
        if (host.equals(publicHost)) {
            return new HostRoute.Public();
        }
        if (host.endsWith(appSuffix)) {
            String label = host.substring(0, host.length() - appSuffix.length());
            if (LABEL.matcher(label).matches()) {
                return new HostRoute.App(label);
            }
            return new HostRoute.Bad("not a single DNS label before the base domain");
        }
        return new HostRoute.Bad("not this cell's domain");
    }
}
