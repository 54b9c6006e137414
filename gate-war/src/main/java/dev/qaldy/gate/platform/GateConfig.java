package dev.qaldy.gate.platform;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Locale;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The cell-wide addresses the gate routes by (docs/cell-contract.md), checked at start. */
@ApplicationScoped
public class GateConfig {

    @Inject
    @ConfigProperty(name = "qaldy.public-url", defaultValue = "http://localhost:8080")
    String publicUrl;

    @Inject
    @ConfigProperty(name = "qaldy.base-domain", defaultValue = "localhost")
    String baseDomain;

    @Inject
    @ConfigProperty(name = "qaldy.control.url", defaultValue = "http://127.0.0.1:8081")
    String controlUrl;

    @Inject
    @ConfigProperty(name = "qaldy.runtime.url", defaultValue = "http://127.0.0.1:8082")
    String runtimeUrl;

    /** Issue 16: the control plane's calls to this gate are served there only. */
    @Inject
    @ConfigProperty(name = "qaldy.gate.internal-port", defaultValue = "8083")
    String internalPortValue;

    @Inject
    Logger log;

    private URI publicOrigin;
    private URI control;
    private URI runtime;
    private int internalPort;

    @PostConstruct
    void check() {
        publicOrigin = origin("qaldy.public-url", publicUrl);
        control = origin("qaldy.control.url", controlUrl);
        runtime = origin("qaldy.runtime.url", runtimeUrl);
        internalPort = port("qaldy.gate.internal-port", internalPortValue);
        log.log(java.util.logging.Level.INFO,
                "gate: console and API at {0}, apps at <app>.{1}, control plane {2}, runtime host {3}; the control plane''s"
                        + " calls to this gate on the internal listener''s port {4,number,#} only",
                new Object[] {publicOrigin, baseDomain(), control, runtime, internalPort});
    }

    /** No trailing slash. */
    public String publicUrl() {
        return publicOrigin.toString();
    }

    /** Lower case: the Host that gets the console and the API. */
    public String publicHost() {
        return publicOrigin.getHost().toLowerCase(Locale.ROOT);
    }

    /** Lower case. */
    public String baseDomain() {
        return baseDomain.trim().toLowerCase(Locale.ROOT);
    }

    public boolean secure() {
        return "https".equals(publicOrigin.getScheme());
    }

    /** No trailing slash. */
    public URI controlUrl() {
        return control;
    }

    /** No trailing slash. */
    public URI runtimeUrl() {
        return runtime;
    }

    /** A request whose local port is this one came in on the internal listener. */
    public int internalPort() {
        return internalPort;
    }

    /** 1–65535; anything else stops the gate at start. */
    static int port(String property, String value) {
        try {
            int port = Integer.parseInt(value == null ? "" : value.trim());
            if (port >= 1 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalStateException(property + " must be a TCP port, 1 to 65535: " + value);
    }

    /** An http(s) origin without trailing slash; a bad value stops the gate at start. */
    static URI origin(String property, String value) {
        URI uri;
        try {
            uri = URI.create(value.trim().replaceAll("/+$", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(property + " is not a URL: " + value, e);
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalStateException(property + " must be an http(s) URL with a host: " + value);
        }
        return uri;
    }
}
